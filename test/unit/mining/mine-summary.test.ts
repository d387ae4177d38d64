import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatMineSummary, summarise } from '../../../src/mining/mine-summary.js';
import { minedFileCounts } from '../../../src/mining/mined-file-counts.js';
import type { MinedRecord } from '../../../src/mining/mined-log.js';

const fileDiff = (path: string) => `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-x = 1\n+x = 2\n`;
const BUGS = { 'bug-one': fileDiff('lib/a.py'), 'bug-two': fileDiff('lib/a.py') + fileDiff('lib/b.py'), 'bug-torn': '@@ not a diff' };

const root = await mkdtemp(join(tmpdir(), 'ssr-mine-summary-'));
afterAll(() => rm(root, { recursive: true, force: true }));
for (const [id, diff] of Object.entries(BUGS)) {
  await mkdir(join(root, 'bugs', id), { recursive: true });
  await writeFile(join(root, 'bugs', id, 'bug_inject.diff'), diff);
}

const record = (n: number, bugId: string | null): MinedRecord => ({
  commit: String(n).repeat(40), verdict: bugId ? 'mined' : 'skipped', reason: bugId ? null : 'no-test-change', detail: '', bugId, subject: `c${n}`, durationMs: bugId ? 1000 : 0,
});

describe('the ssr mine summary', () => {
  it('counts the mined bugs that change more than one file, read from their bug dirs (a gone or torn one counts as neither)', async () => {
    const ids = ['bug-one', 'bug-two', 'bug-torn', 'bug-gone'];
    const fileCounts = await minedFileCounts(root, ids);
    expect([...fileCounts]).toEqual([['bug-one', 1], ['bug-two', 2]]);
    const summary = summarise({
      repo: 'r', tip: 'f'.repeat(40), commitsListed: 5, shallow: false, records: [...ids.map((id, i) => record(i + 1, id)), record(9, null)],
      infrastructure: 0, stoppedBy: 'history-end', thisRun: { judged: 5, mined: 4, judgingMs: 4000 }, fileCounts, removedImages: ['ssr-repo-r:0123456789ab'],
    });
    expect(summary).toMatchObject({ mined: 4, multiFile: 1, removedImages: ['ssr-repo-r:0123456789ab'] });
    const text = formatMineSummary(summary, '/out');
    expect(text).toContain('r: 4 real bug(s) in 5 of 5 commit(s) scanned (1 s of judging per real bug found in this run) → /out/bugs/\n  1 of them change more than one file\n');
    expect(text).toContain('  removed 1 sandbox image(s) built for the commits judged (--keep-images keeps them)\n');
  });

  it("counts only this run's judging and bugs in secondsPerBug: a rerun's window also holds earlier runs' verdicts", () => {
    // An earlier run judged commits 1 and 2 (60 s each, one real bug); this run judged 3 and 4 (10 s and 20 s) and found one more.
    const earlier = [{ ...record(1, 'bug-one'), durationMs: 60_000 }, { ...record(2, null), durationMs: 60_000 }];
    const now = [{ ...record(3, 'bug-two'), durationMs: 10_000 }, { ...record(4, null), durationMs: 20_000 }];
    const summary = summarise({
      repo: 'r', tip: 'f'.repeat(40), commitsListed: 4, shallow: false, records: [...earlier, ...now], infrastructure: 0, stoppedBy: 'history-end',
      thisRun: { judged: 2, mined: 1, judgingMs: 30_000 }, fileCounts: new Map(), removedImages: [],
    });
    // The window's totals still count both runs; the rate counts this run's 30 s over its one bug, not 150 s over two.
    expect(summary).toMatchObject({ scanned: 4, mined: 2, secondsPerBug: 30, judgedNow: 2, minedNow: 1, judgingSeconds: 30 });
    const rerun = summarise({
      repo: 'r', tip: 'f'.repeat(40), commitsListed: 4, shallow: false, records: [...earlier, ...now], infrastructure: 0, stoppedBy: 'history-end',
      thisRun: { judged: 0, mined: 0, judgingMs: 0 }, fileCounts: new Map(), removedImages: [],
    });
    // A rerun that judged nothing found nothing: no rate, and the line says none.
    expect(rerun).toMatchObject({ mined: 2, secondsPerBug: null, judgedNow: 0, minedNow: 0 });
    expect(formatMineSummary(rerun, '/out')).not.toContain('per real bug');
  });
});
