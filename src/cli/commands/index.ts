import type { Command } from 'commander';

/** Registers one command (its flags and action) on the program. */
export type RegisterCommand = (program: Command) => void;

/**
 * Every `ssr` command by name, in the order `ssr --help` lists them, each loaded only when asked
 * for: a command's module pulls in its whole stack (the Kubernetes client, dockerode, tree-sitter),
 * and `ssr validate` should not pay seconds of start-up for the modules of `ssr selfplay`.
 */
export const COMMAND_LOADERS: ReadonlyArray<readonly [name: string, load: () => Promise<RegisterCommand>]> = [
  ['init', async () => (await import('./init.js')).registerInit],
  ['selfplay', async () => (await import('./selfplay.js')).registerSelfplay],
  ['inject', async () => (await import('./inject.js')).registerInject],
  ['solve', async () => (await import('./solve.js')).registerSolve],
  ['grade', async () => (await import('./grade.js')).registerGrade],
  ['validate', async () => (await import('./validate.js')).registerValidate],
  ['corpus', async () => (await import('./corpus.js')).registerCorpus],
  ['export', async () => (await import('./export.js')).registerExport],
  ['mine', async () => (await import('./mine.js')).registerMine],
  ['eval', async () => (await import('./eval.js')).registerEval],
  ['realism', async () => (await import('./realism.js')).registerRealism],
  ['report', async () => (await import('./report.js')).registerReport],
  ['test-run', async () => (await import('./test-run.js')).registerTestRun],
  ['build-image', async () => (await import('./build-image.js')).registerBuildImage],
  ['doctor', async () => (await import('./doctor.js')).registerDoctor],
];
