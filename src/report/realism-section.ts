import type { RealismRow, RealismSide, Spread } from '../realism/realism-table.js';
import type { RealismSummary } from '../realism/realism-summary.js';
import { percent } from './format.js';
import { htmlPage } from './html-page.js';
import { esc } from './plots/svg.js';

const spreadCell = (s: Spread): string => (s.mean === null ? '–' : `${s.mean} / ${s.median} / ${s.max}`);
const countsCell = (counts: Record<string, number>): string =>
  Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([k, n]) => `${esc(k)} ${n}`).join(', ') || '–';

function solveCell(side: RealismSide): string {
  const s = side.solver;
  if (s === null) return 'not evaluated';
  return s.solveRate === null ? `${esc(s.policy)}: no scored attempt` : `${percent(s.solveRate)} (${s.solved}/${s.attempts}, ${esc(s.policy)})`;
}

function rowTable(row: RealismRow): string {
  const lines: Array<[string, (side: RealismSide) => string]> = [
    ['bugs', (side) => String(side.bugs)],
    ['files changed (mean / median / max)', (side) => spreadCell(side.files)],
    ['hunks', (side) => spreadCell(side.hunks)],
    ['lines changed', (side) => spreadCell(side.lines)],
    ['failing tests (FAIL_TO_PASS)', (side) => spreadCell(side.failingTests)],
    ['test files they span', (side) => spreadCell(side.failingTestFiles)],
    ['kinds', (side) => countsCell(side.kinds)],
    ['diff shapes', (side) => countsCell(side.shapes)],
    ['same code change as a bug of the other side', (side) => String(side.sameChangeAsOther)],
    ['solve rate', solveCell],
  ];
  const body = lines.map(([label, cell]) => `<tr><td>${esc(label)}</td><td>${cell(row.synthetic)}</td><td>${cell(row.real)}</td></tr>`).join('');
  return `<h3>${esc(row.repo)}</h3><table class="bugs"><thead><tr><th></th><th>synthetic</th><th>real (mined)</th></tr></thead><tbody>${body}</tbody></table>`;
}

/**
 * The "Realism" section (`ssr realism --html`): synthetic and mined bugs measured alike, per repo
 * and over all, with each side's solve rate from its `ssr eval`.
 */
export function realismSection(summary: RealismSummary): string {
  const rows = summary.byRepo.length > 1 ? [...summary.byRepo, summary.all] : summary.byRepo;
  const notes = summary.notes.map((note) => `<p class="note">${esc(note)}</p>`).join('');
  return [
    '<h2 id="realism">Realism</h2>',
    `<p class="lead">Synthetic bugs of <code>${esc(summary.synthetic.set)}</code> beside real ones mined from history in <code>${esc(summary.real.set)}</code>. Sizes are of bug_inject.diff (for a mined bug, its fix reversed); breadth is the tests that fail on the buggy state.</p>`,
    notes,
    ...rows.map(rowTable),
  ].join('\n');
}

/** A whole page around {@link realismSection}. */
export function realismReportPage(summary: RealismSummary): string {
  return htmlPage('ssr realism', `<h1>ssr realism</h1>\n${realismSection(summary)}`);
}
