import { describe, expect, it } from 'vitest';
import { median, perValidBug, renderCorpusBench, type CorpusRunFigures } from '../../../src/selfplay/bench/corpus-bench-figures.js';
import { phaseSeconds } from '../../../src/selfplay/bench/corpus-phase-figures.js';

const run = (over: Partial<CorpusRunFigures>): CorpusRunFigures => ({
  repo: 'h11', build: 'a', rep: 1, wallS: 120, cores: 2, episodes: 3, valid: 2, cleanS: 2, testRuns: 30, fullRuns: 24, load: [10, 12], phases: phaseSeconds([]), ...over,
});

describe('bench-corpus figures', () => {
  it('per valid bug: seconds, core-seconds, × clean, runs; bugs per hour per core', () => {
    expect(perValidBug(run({}))).toEqual({ bugsPerCoreHour: 30, s: 60, coreS: 120, xClean: 30, runs: 15, fullRuns: 12 });
    // No valid bug: no finite time per bug, and no runs per bug; a build that does not count runs: none.
    expect(perValidBug(run({ valid: 0 }))).toMatchObject({ bugsPerCoreHour: 0, s: Infinity, runs: null });
    expect(perValidBug(run({ testRuns: null, fullRuns: null })).runs).toBeNull();
  });

  it('median of the finite values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, Infinity, 3])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('one row per repo and build with each repetition and the median, the ratio of two builds, the load seen', () => {
    const runs = [run({ rep: 1 }), run({ rep: 2, wallS: 180 }), run({ build: 'b', rep: 1, wallS: 60 }), run({ build: 'b', rep: 2, wallS: 90, testRuns: null, fullRuns: null, load: [30, 31] })];
    const text = renderCorpusBench(runs, { perRepo: 3, seed: '1', builds: ['a', 'b'] });
    expect(text).toContain('| h11 | a | 2.00 | 2/3 / 2/3 | 30.00 / 20.00 (**25.00**) | 60.0 / 90.0 (**75.0**) | 30.0 / 45.0 (**37.5**) | 120 / 180 (**150**) | 15.0 (12.0) / 15.0 (12.0) |');
    expect(text).toContain('| h11 | b | 2.00 | 2/3 / 2/3 | 60.00 / 40.00 (**50.00**) | 30.0 / 45.0 (**37.5**) |');
    expect(text).toContain('| 15.0 (12.0) / – |');
    expect(text).toContain('- h11: 0.50×');
    expect(text).toContain('min 10.0, median 12.0, max 31.0 on 2 cores');
    expect(text).toContain('| repo | build | valid | episodes without a valid bug |');
  });
});
