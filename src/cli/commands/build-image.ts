import type { Command } from 'commander';
import { progressDisplay } from '../../report/progress-display.js';
import { prepareTemplate } from '../../sandbox/sandbox-factory.js';
import type { SandboxTemplate } from '../../sandbox/sandbox.js';
import { selectBackend } from '../../sandbox/select-backend.js';
import { addRepoOptions, addSandboxOption, resolveRepoOptions, type RepoOptions, type SandboxChoice } from '../common-options.js';

interface BuildImageOptions extends RepoOptions {
  sandbox: SandboxChoice;
}

/** `ssr build-image`: build (idempotently) what a repo's sandboxes start from and print its tag or directory. */
export function registerBuildImage(program: Command): void {
  const command = program
    .command('build-image')
    .description("build (once; later runs reuse it) the base image and a repo's sandbox image or bwrap template, and print its tag");
  addRepoOptions(command);
  addSandboxOption(command);
  command.action(async (options: BuildImageOptions) => {
    const repo = await resolveRepoOptions(options);
    const backend = await selectBackend(options.sandbox);
    const display = progressDisplay(process.stderr);
    let template: SandboxTemplate;
    try {
      template = await prepareTemplate(repo, backend, display.sink);
    } finally {
      display.stop();
    }
    process.stdout.write(`${template.ref}\n`);
  });
}
