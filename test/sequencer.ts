import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (seconds of the last cold CI run on 2 cores, before
 * the cuts that came with this order; rounded). Order matters, not the figures: vitest hands files
 * to its 2 forks in this order as each fork frees up, so the long files start early and the short
 * ones fill the end — with vitest's own order on a clean clone (largest file in bytes first) a
 * 200-second file can start last and run alone while the other fork waits. js-cheat-suite and
 * selfplay-tskit need the Node images that scripts/test builds beside the first tests, so they go
 * after three Python-only files.
 */
export const SLOW_FIRST: ReadonlyArray<readonly [file: string, seconds: number]> = [
  ['test/integration/selfplay-resume.test.ts', 202],
  ['test/integration/selfplay.test.ts', 169],
  ['test/integration/selfplay-async-trainer.test.ts', 126],
  ['test/integration/js-cheat-suite.test.ts', 165],
  ['test/integration/selfplay-engines.test.ts', 96],
  ['test/integration/selfplay-tskit.test.ts', 91],
  ['test/integration/cheat-suite.test.ts', 73],
  ['test/integration/inject-solve-e2e.test.ts', 69],
  // Not among the eight slowest of that run (under 69 s): kept ahead of the other integration files.
  ['test/integration/validator/parallel-equivalence.test.ts', 60],
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
