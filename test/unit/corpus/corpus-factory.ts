import type { EpisodeRecord } from '../../../src/corpus/episode-record.js';
import type { WriteBugInput } from '../../../src/corpus/run-store.js';
import { makeArtifact } from '../artifact/artifact-factory.js';

/** A completed order-1 episode with 8 attempts, 3 solved; override any field. */
export function makeEpisode(overrides: Partial<EpisodeRecord> = {}): EpisodeRecord {
  return {
    id: 'ep-0-0', step: 0, repo: 'pyledger', strategy: 'removal', order: 1, parentBugId: null, attemptOf: null,
    status: 'completed', discardReason: null, bugId: 'bug-0123456789abcdef', valid: true, failedCheck: null,
    solverAttempts: 8, solved: 3, rewards: { injector: 0.325, solver: [1, 1, 1, -1, -1, -1, -1, -1] }, policyVersion: 0,
    durationsMs: { inject: 10, validate: 20, solve: 30, total: 60 }, turns: 40, tokens: 1234,
    ...overrides,
  };
}

/** A discarded version of an episode: no rewards, a reason. */
export function discarded(id: string, reason = 'docker-unavailable: the Docker engine stopped'): EpisodeRecord {
  return makeEpisode({ id, status: 'discarded', discardReason: reason, rewards: { injector: null, solver: [] }, solverAttempts: 0, solved: 0 });
}

export function makeBug(overrides: { bugInject?: string; valid?: boolean; testScript?: string } = {}): WriteBugInput {
  return {
    artifact: makeArtifact({ ...(overrides.bugInject ? { bugInject: overrides.bugInject } : {}), ...(overrides.testScript ? { testScript: overrides.testScript } : {}) }),
    validation: { valid: overrides.valid ?? true, failedCheck: overrides.valid === false ? 'parser' : null, failToPass: ['t::a'], passToPass: ['t::b'] },
    metadata: { repo: 'pyledger', commit: 'a0fcf854bb26b37599c51843decfcb341a864f73', strategy: 'removal', order: 1, parentBugId: null, attemptOf: null, episodeId: 'ep-0-0', policyVersion: 0 },
  };
}
