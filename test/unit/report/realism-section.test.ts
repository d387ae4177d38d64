import { describe, expect, it } from 'vitest';
import type { BugMeasure } from '../../../src/realism/bug-measure.js';
import type { RealismSummary } from '../../../src/realism/realism-summary.js';
import { realismTables } from '../../../src/realism/realism-table.js';
import { realismReportPage } from '../../../src/report/realism-section.js';

const bug = (over: Partial<BugMeasure>): BugMeasure => ({
  bugId: 'b', repo: 'pyrange', origin: 'synthetic', kind: 'negate-condition', shape: ['replace-lines'], files: 1, hunks: 1, lines: 2, failingTests: 1, failingTestFiles: 1, change: null, ...over,
});

describe('realismReportPage', () => {
  const bugs = [bug({ bugId: 's', repo: '<lib>', failingTests: 7 }), bug({ bugId: 'r', origin: 'real', kind: 'mined', repo: 'pyrange' })];
  const tables = realismTables(bugs, { real: { policy: 'procedural', outcomes: [{ instanceId: 'pyrange__r', repo: 'pyrange', kind: 'mined', status: 'scored', scored: 4, solved: 1 }] } });
  const summary: RealismSummary = {
    synthetic: { set: '/runs/corpus', eval: null }, real: { set: '/runs/mined', eval: '/runs/eval' }, sharedRepos: [], ...tables, bugs,
    notes: ['no repo holds bugs of both origins: the sides come from different code'],
  };
  const page = realismReportPage(summary);

  it('has the section, a table per repo and one for all, each side in its column', () => {
    expect(page).toContain('<h2 id="realism">Realism</h2>');
    expect(page.match(/<h3>/g)).toHaveLength(3);
    expect(page).toContain('<h3>all</h3>');
    expect(page).toContain('<tr><td>failing tests (FAIL_TO_PASS)</td><td>7 / 7 / 7</td><td>–</td></tr>');
    expect(page).toContain('<tr><td>solve rate</td><td>not evaluated</td><td>25% (1/4, procedural)</td></tr>');
  });

  it('escapes repo names and shows the notes', () => {
    expect(page).toContain('<h3>&lt;lib&gt;</h3>');
    expect(page).toContain('<p class="note">no repo holds bugs of both origins');
  });
});
