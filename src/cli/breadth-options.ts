import type { Command } from 'commander';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { EngineError } from '../util/engine-error.js';
import { positiveInt } from './common-options.js';

/** Flags of {@link addBreadthOptions}: the breadth cap, over the repos.yaml thresholds. */
export interface BreadthFlags {
  maxFailingTests?: number;
  maxFailingFiles?: number;
}

/** Adds `--max-failing-tests <n>` and `--max-failing-files <n>` (the `breadth` check's caps). */
export function addBreadthOptions(command: Command): Command {
  return command
    .option('--max-failing-tests <n>', "reject a bug that makes more than n oracle tests fail (default: the repo's max_failing_tests, 40)", positiveInt('--max-failing-tests'))
    .option('--max-failing-files <n>', "reject a bug whose failing tests span more than n test files (default: the repo's max_failing_files, 8)", positiveInt('--max-failing-files'));
}

/** The repo with the flags' caps in place of its repos.yaml ones; a cap below min_failing_tests is a usage error. */
export function withBreadthFlags(repo: ResolvedRepo, flags: BreadthFlags): ResolvedRepo {
  const thresholds = {
    ...repo.thresholds,
    ...(flags.maxFailingTests !== undefined ? { max_failing_tests: flags.maxFailingTests } : {}),
    ...(flags.maxFailingFiles !== undefined ? { max_failing_files: flags.maxFailingFiles } : {}),
  };
  if (thresholds.max_failing_tests < thresholds.min_failing_tests) {
    throw new EngineError('usage', `--max-failing-tests ${thresholds.max_failing_tests}: below repo ${repo.id}'s min_failing_tests (${thresholds.min_failing_tests}); no bug could pass`);
  }
  return { ...repo, thresholds };
}
