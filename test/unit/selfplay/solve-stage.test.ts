import PQueue from 'p-queue';
import { describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';
import type { SelfplayContext } from '../../../src/selfplay/selfplay-context.js';
import { solveStage } from '../../../src/selfplay/stages/04-solve.js';

describe('solveStage once the run is stopping', () => {
  it('discards every attempt with the reason and no reward, before any sandbox or policy call (and throws nothing)', async () => {
    // Only what an attempt may touch when the run already stopped: the health verdict and the lane.
    const ctx = { health: { stopped: 'the Docker engine is unreachable' }, lanes: { solver: new PQueue({ concurrency: 2 }) } } as unknown as SelfplayContext;
    const input = { episodeId: 's1-repo-0-abc', repo: 'repo', artifact: {} as BugArtifact, originalPassing: ['t::a'], count: 2, seed: 1 };
    const { attempts } = await solveStage(ctx, input);
    expect(attempts).toEqual([1, 2].map((n) => ({
      id: `s1-repo-0-abc-a${n}`, n, status: 'discarded', reward: null, exitStatus: null,
      reason: 'engine-stopped: the run stopped: the Docker engine is unreachable', turns: 0, tokens: 0, leaks: [],
    })));
  });
});
