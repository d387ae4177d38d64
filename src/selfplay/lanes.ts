import PQueue from 'p-queue';
import type { LaneSizes } from './selfplay-settings.js';

/**
 * The run's lanes of bounded concurrency. Each bounds one scarce thing: `episodes` the order-1
 * pipelines in flight, `solver` the Solver attempts (each holds a sandbox for its whole agent
 * run), `sandbox` the test-state sandboxes of validation and grading, `policy` the calls to the
 * model. Work only ever waits on a lane *inside* the one it holds in this order (episodes →
 * solver → sandbox; policy calls from anywhere), so no cycle can deadlock.
 */
export interface Lanes {
  episodes: PQueue;
  solver: PQueue;
  sandbox: PQueue;
  policy: PQueue;
}

export function createLanes(sizes: LaneSizes): Lanes {
  return {
    episodes: new PQueue({ concurrency: sizes.episodes }),
    solver: new PQueue({ concurrency: sizes.solver }),
    sandbox: new PQueue({ concurrency: sizes.sandbox }),
    policy: new PQueue({ concurrency: sizes.policy }),
  };
}
