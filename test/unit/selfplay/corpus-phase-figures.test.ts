import { describe, expect, it } from 'vitest';
import { episodeRecordSchema, type EpisodeRecord } from '../../../src/corpus/episode-record.js';
import { addPhaseSeconds, phaseSeconds, renderPhaseTable } from '../../../src/selfplay/bench/corpus-phase-figures.js';

const record = (over: Partial<EpisodeRecord>): EpisodeRecord => episodeRecordSchema.parse({
  id: 'e', step: 0, repo: 'h11', strategy: 'direct', order: 1, parentBugId: null, attemptOf: null, status: 'completed', discardReason: null,
  bugId: 'b', valid: true, failedCheck: null, solverAttempts: 0, solved: 0, rewards: { injector: null, solver: [] }, policyVersion: 0,
  durationsMs: { inject: 10_000, validate: 6_000, solve: 0, total: 17_000 }, turns: 9, tokens: 0,
  injectPhasesMs: { sandbox: 1_000, discover: 2_000, trace: 4_000, kept: 1_000, rejected: 500 }, ...over,
});

describe('bench-corpus phase breakdown', () => {
  it("splits each episode's time into the recorded phases, the agent loop's rest, validation and the rest of the episode", () => {
    const seconds = phaseSeconds([
      record({}),
      // Gave up: its time is time without a valid bug; an order-2 episode is not the Injector's.
      record({ id: 'g', valid: null, bugId: null, durationsMs: { inject: 3_000, validate: 0, solve: 0, total: 3_000 }, injectPhasesMs: { sandbox: 500, discover: 2_000 } }),
      record({ id: 'o2', order: 2, parentBugId: 'b', injectPhasesMs: undefined }),
    ]);
    expect(seconds.phases).toMatchObject({ sandbox: 1.5, discover: 4, trace: 4, kept: 1, rejected: 0.5, agent: 2, validate: 6, solve: 0, other: 1 });
    expect(seconds).toMatchObject({ episodes: 20, noValidBug: 3, timed: 2 });
  });

  it('counts a record without phases (an older build) whole under agent, and a duplicate as no valid bug', () => {
    const seconds = phaseSeconds([record({ injectPhasesMs: undefined, duplicateOf: 'a' })]);
    expect(seconds.phases).toMatchObject({ sandbox: 0, agent: 10, validate: 6, other: 1 });
    expect(seconds).toMatchObject({ noValidBug: 17, timed: 0 });
  });

  it('renders seconds per valid bug and the share of episode time per phase, leaving out phases that took none', () => {
    const a = phaseSeconds([record({})]);
    const table = renderPhaseTable([
      { repo: 'h11', build: 'main', valid: 2, seconds: addPhaseSeconds([a, a]) },
      { repo: 'h11', build: 'new', valid: 0, seconds: phaseSeconds([record({ valid: false })]) },
    ]);
    expect(table).toContain('| repo | build | valid | sandbox | discover | trace | rejected | kept | agent | validate | other | episodes without a valid bug |');
    expect(table).toContain('| h11 | main | 2 | 1.0 (6 %) | 2.0 (12 %) | 4.0 (24 %) | 0.5 (3 %) | 1.0 (6 %) | 1.5 (9 %) | 6.0 (35 %) | 1.0 (6 %) | 0 % |');
    expect(table).toContain('| h11 | new | 0 | – (6 %) |');
    expect(table).toMatch(/\| 100 % \|\n$/);
  });
});
