import type { Command } from 'commander';
import { progressDisplay } from '../../util/progress-display.js';
import { prepareTemplate, pruneStaleTemplates } from '../../sandbox/sandbox-factory.js';
import type { SandboxTemplate } from '../../sandbox/sandbox.js';
import { addDockerHostOption, sandboxBackend } from '../docker-host-options.js';
import { addRepoOptions, addSandboxOption, resolveRepoOptions, type RepoOptions, type SandboxChoice } from '../common-options.js';

interface BuildImageOptions extends RepoOptions {
  sandbox: SandboxChoice;
  /** --docker-host (repeatable). */
  dockerHost?: string[];
  prune?: boolean;
}

/** `ssr build-image`: build (idempotently) what a repo's sandboxes start from and print its tag or directory. */
export function registerBuildImage(program: Command): void {
  const command = program
    .command('build-image')
    .description("build (once; later runs reuse it) the base image and a repo's sandbox image or bwrap template, and print its tag");
  addRepoOptions(command);
  addSandboxOption(command);
  addDockerHostOption(command);
  command.option('--prune', "then remove this repo's older images (or bwrap templates): those built for another commit or recipe; ones a container still uses are kept");
  command.action(async (options: BuildImageOptions) => {
    const repo = await resolveRepoOptions(options);
    const backend = await sandboxBackend(options);
    const display = progressDisplay(process.stderr);
    let template: SandboxTemplate;
    try {
      template = await prepareTemplate(repo, backend, display.sink);
    } finally {
      display.stop();
    }
    if (options.prune) {
      const pruned = await pruneStaleTemplates(template);
      for (const ref of pruned.removed) process.stderr.write(`removed ${ref}\n`);
      for (const { ref, reason } of pruned.kept) process.stderr.write(`kept ${ref}: ${reason}\n`);
      if (pruned.removed.length + pruned.kept.length === 0) process.stderr.write(`nothing to prune for ${template.repoId}\n`);
    }
    process.stdout.write(`${template.ref}\n`);
  });
}
