import { describe, expect, it } from 'vitest';
import { episodeLoss } from '../../../src/selfplay/bench/episode-loss.js';
import { renderRealReposTable } from '../../../src/selfplay/bench/render-real-repos.js';
import type { EpisodeRecord } from '../../../src/corpus/episode-record.js';

const record = (overrides: Partial<EpisodeRecord>): EpisodeRecord => ({
  id: 'e1', step: 0, repo: 'toolz', strategy: 'removal', order: 1, parentBugId: null, attemptOf: null, status: 'completed', discardReason: null,
  bugId: 'b1', valid: true, failedCheck: null, solverAttempts: 0, solved: 0, rewards: { injector: null, solver: [] }, policyVersion: 0,
  durationsMs: { inject: 1, validate: 1, solve: 0, total: 2 }, turns: 1, tokens: 0, ...overrides,
});

describe('episodeLoss', () => {
  it.each([
    ['a valid bug', record({}), null],
    ['a failed check, with its own reason', record({ valid: false, failedCheck: 'tests-break' }), { type: 'invalid:tests-break', reason: 'no test fails' }],
    ['a give-up', record({ valid: null, bugId: null, injectorExit: { status: 'gave-up', reason: 'found nothing to change' } }), { type: 'gave-up', reason: 'found nothing to change' }],
    ['no submission', record({ valid: null, bugId: null, injectorExit: { status: 'turn-limit', reason: null } }), { type: 'no-submission', reason: expect.stringMatching(/ended turn-limit/) }],
    ['a discard', record({ status: 'discarded', valid: null, discardReason: 'validate:sandbox-failed: docker went away' }), { type: expect.stringMatching(/^discarded:validate/), reason: 'validate:sandbox-failed: docker went away' }],
  ])('%s', (_name, input, expected) => {
    expect(episodeLoss(input, 'no test fails')).toEqual(expected);
  });
});

describe('renderRealReposTable', () => {
  it('shows yield per strategy, s per valid bug against the clean suite, losses by class and every reason', () => {
    const text = renderRealReposTable(
      [
        {
          repo: 'toolz', tests: 180, cleanS: 2, stepS: 60, notes: ['history not planned on toolz (1 commit)'],
          byStrategy: { removal: { valid: 2, episodes: 3 }, direct: { valid: 1, episodes: 1 } },
          losses: [{ type: 'invalid:tests-break', reason: 'no test fails', episode: 'e3', strategy: 'removal' }],
        },
        { repo: 'broken', tests: null, cleanS: null, stepS: 0, notes: [], byStrategy: {}, losses: [], failure: 'golden gate refused repo broken: no tests' },
      ],
      { episodes: 4, attempts: 0, strategy: 'mixed' },
    );
    expect(text).toContain('| toolz | 180 | 2.0 | 3/4 (75 %) | removal 2/3, direct 1/1 | 20 | 10× | invalid:tests-break:1 |');
    expect(text).toContain('| broken | - | - | - | - | - | - | not run: golden gate refused repo broken: no tests |');
    expect(text).toContain('- toolz removal invalid:tests-break: no test fails');
    expect(text).toContain('- toolz (mix): history not planned on toolz (1 commit)');
  });
});
