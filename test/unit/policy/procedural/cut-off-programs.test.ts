import { describe, expect, it } from 'vitest';
import { countingRuns, type InjectorRuns } from '../../../../src/policy/procedural/injector/count-runs.js';
import { timedSteps } from '../../../../src/policy/procedural/phase-times.js';
import { bash, type Steps } from '../../../../src/policy/procedural/program.js';

/**
 * A program cut off by the loop (ProceduralPolicy.endEpisode calls return() on it) must run its
 * `finally` blocks through every wrapper: a shared discovery releases its waiters there, and an
 * episode whose engine died mid-discovery otherwise left the run's other episodes waiting forever.
 */
function program(finished: { value: boolean }): Steps<string> {
  return (async function* () {
    try {
      yield bash('run o', 'clean run');
      yield bash('trace --map', 'traced run');
      return 'kept';
    } finally {
      finished.value = true;
    }
  })();
}

const RUNS = (): InjectorRuns => ({ full: 0, restricted: 0 });

describe('a program cut off inside its wrappers', () => {
  it.each<[string, (steps: Steps<string>) => Steps<string>]>([
    ['timedSteps', (steps) => timedSteps(steps, {}, 'discover')],
    ['countingRuns', (steps) => countingRuns(steps, RUNS())],
    ['both, nested as the Injector nests them', (steps) => countingRuns(timedSteps(steps, {}, 'discover'), RUNS())],
  ])('%s: return() runs the wrapped finally blocks', async (_label, wrap) => {
    const finished = { value: false };
    const wrapped = wrap(program(finished));
    expect((await wrapped.next()).done).toBe(false);
    await wrapped.return('ended by the loop');
    expect(finished.value).toBe(true);
  });
});
