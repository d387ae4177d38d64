import type { RealismRow, RealismSide, Spread } from './realism-table.js';

const num = (n: number | null): string => (n === null ? '-' : String(n));
const spreadText = (s: Spread): string => (s.mean === null ? '-' : `${num(s.mean)} / ${num(s.median)} / ${num(s.max)}`);
const countsText = (counts: Record<string, number>): string =>
  Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([k, n]) => `${k} ${n}`).join(', ') || '-';

function solverText(side: RealismSide): string {
  const s = side.solver;
  if (s === null) return 'not evaluated';
  if (s.solveRate === null) return `${s.policy}: no scored attempt`;
  return `${s.solved}/${s.attempts} = ${(100 * s.solveRate).toFixed(1)} % (${s.policy}, ${s.evaluated} bug(s))`;
}

/** One repo's (or all repos') side-by-side block, for `ssr realism` without --json. */
function block(row: RealismRow): string {
  const lines: Array<[string, string, string]> = [
    [row.repo, 'synthetic', 'real (mined)'],
    ['  bugs', String(row.synthetic.bugs), String(row.real.bugs)],
    ['  files changed (mean / median / max)', spreadText(row.synthetic.files), spreadText(row.real.files)],
    ['  hunks', spreadText(row.synthetic.hunks), spreadText(row.real.hunks)],
    ['  lines changed', spreadText(row.synthetic.lines), spreadText(row.real.lines)],
    ['  failing tests (FAIL_TO_PASS)', spreadText(row.synthetic.failingTests), spreadText(row.real.failingTests)],
    ['  test files they span', spreadText(row.synthetic.failingTestFiles), spreadText(row.real.failingTestFiles)],
    ['  same code change as a bug of the other side', String(row.synthetic.sameChangeAsOther), String(row.real.sameChangeAsOther)],
    ['  solve rate', solverText(row.synthetic), solverText(row.real)],
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...lines.map((line) => line[i]!.length)));
  const table = lines.map((line) => line.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  for (const origin of ['synthetic', 'real'] as const) {
    table.push(`  ${origin} kinds: ${countsText(row[origin].kinds)}`, `  ${origin} diff shapes: ${countsText(row[origin].shapes)}`);
  }
  return table.join('\n');
}

/** The side-by-side tables as text: one block per repo, then all repos (when more than one). */
export function formatRealism(tables: { byRepo: RealismRow[]; all: RealismRow }): string {
  const rows = tables.byRepo.length > 1 ? [...tables.byRepo, tables.all] : tables.byRepo;
  return `${rows.map(block).join('\n\n')}\n`;
}
