import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (seconds of the last cold run on 2 cores: the local
 * simulation of CI at 47eba96; rounded). Order matters, not the figures: vitest hands files to its
 * 2 forks in this order as each fork frees up, so the long files start early and the short ones
 * fill the end — with vitest's own order on a clean clone (largest file in bytes first) a
 * 150-second file can start last and run alone while the other fork waits. js-cheat-suite,
 * selfplay-tskit, jest-runner and selfplay-js need the Node images that scripts/test builds beside
 * the first tests, so three Python-only files go first. scripts/test prints a cold run's longest
 * files at its end (scripts/vitest-file-times.ts): the figures to update this list from.
 */
export const SLOW_FIRST: ReadonlyArray<readonly [file: string, seconds: number]> = [
  ['test/integration/selfplay.test.ts', 158],
  ['test/integration/selfplay-resume.test.ts', 143],
  ['test/integration/selfplay-async-trainer.test.ts', 108],
  ['test/integration/js-cheat-suite.test.ts', 164],
  ['test/integration/cheat-suite.test.ts', 99],
  ['test/integration/selfplay-tskit.test.ts', 87],
  ['test/integration/jest-runner.test.ts', 78],
  ['test/integration/selfplay-engines.test.ts', 75],
  ['test/integration/mine-eval.test.ts', 62],
  ['test/integration/validator/parallel-equivalence.test.ts', 60],
  ['test/integration/selfplay-js.test.ts', 52],
  ['test/integration/inject-solve-e2e.test.ts', 52],
];

/** Where `file` (relative to the root, with /) goes: its SLOW_FIRST index, then other integration files, then unit files. */
export const rank = (file: string): number => {
  const slow = SLOW_FIRST.findIndex(([name]) => name === file);
  if (slow !== -1) return slow;
  // Then the other integration files (seconds to minutes each), then the unit files (well under a second).
  return SLOW_FIRST.length + (file.startsWith('test/integration/') ? 0 : 1);
};

/**
 * Slowest first (see SLOW_FIRST), then the other integration files, then the unit tests; within
 * each group vitest's own order (failed first and longest first when it has a cache, else largest).
 */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const key = (spec: TestSpecification): number => rank(relative(spec.project.config.root, spec.moduleId).split('\\').join('/'));
    // Array.prototype.sort is stable: equal ranks keep the base order.
    return [...base].sort((a, b) => key(a) - key(b));
  }
}
