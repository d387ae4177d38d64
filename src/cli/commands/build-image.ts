import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { ProgressEvent, ProgressSink } from '../../report/progress.js';
import { prepareTemplate } from '../../sandbox/sandbox-factory.js';
import type { SandboxTemplate } from '../../sandbox/sandbox.js';
import { selectBackend } from '../../sandbox/select-backend.js';
import { addRepoOptions, addSandboxOption, resolveRepoOptions, type RepoOptions, type SandboxChoice } from '../common-options.js';

interface BuildImageOptions extends RepoOptions {
  sandbox: SandboxChoice;
}

/** A progress bar on a terminal; elsewhere (CI logs, pipes) one plain line per stage or 10% step. */
function progressDisplay(stream: NodeJS.WriteStream): { sink: ProgressSink; stop: () => void } {
  if (stream.isTTY) {
    const bar = new SingleBar({ stream, format: '{stage} [{bar}] {percentage}% | {message}', hideCursor: true, clearOnComplete: false });
    let started = false;
    let lastStage = '';
    return {
      sink: (event: ProgressEvent) => {
        if (!started) bar.start(100, 0, { stage: event.stage, message: '' });
        started = true;
        // A new stage restarts the bar: each stage reports its own fraction.
        const value = event.fraction !== undefined ? Math.round(event.fraction * 100) : event.stage === lastStage ? undefined : 0;
        lastStage = event.stage;
        bar.update(value ?? bar.getProgress() * 100, { stage: event.stage, message: event.message.slice(0, 60) });
      },
      stop: () => {
        if (started) bar.stop();
        started = false;
      },
    };
  }
  let last = { stage: '', decile: -1 };
  return {
    sink: (event: ProgressEvent) => {
      const decile = event.fraction === undefined ? -1 : Math.floor(event.fraction * 10);
      if (event.stage === last.stage && decile === last.decile && event.fraction !== undefined) return;
      last = { stage: event.stage, decile };
      const percent = event.fraction === undefined ? '' : ` ${Math.round(event.fraction * 100)}%`;
      stream.write(`[${event.stage}${percent}] ${event.message}\n`);
    },
    stop: () => undefined,
  };
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
