import { passAtK } from './pass-at-k.js';

/** What one instance of an eval set came to. */
export interface InstanceOutcome {
  instanceId: string;
  repo: string;
  /** The bug kind: `mined` for a real bug, the operators or strategy of a synthetic one. */
  kind: string;
  /** `invalid`: its validation rejected it (never attempted, left out of the rates). */
  status: 'scored' | 'invalid';
  /** Scored attempts (discarded ones are not) and those that earned +1. */
  scored: number;
  solved: number;
}

/** One row of a table per repo or per kind (and the `all` row). */
export interface EvalRow {
  group: string;
  instances: number;
  invalid: number;
  attempts: number;
  solved: number;
  /** Solved attempts / scored attempts; null without any. */
  solveRate: number | null;
  /** Mean over instances of pass@1 and pass@k. */
  passAt1: number | null;
  passAtK: number | null;
}

function mean(values: (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
}

function rowOf(group: string, outcomes: InstanceOutcome[], k: number): EvalRow {
  const scored = outcomes.filter((o) => o.status === 'scored');
  const attempts = scored.reduce((sum, o) => sum + o.scored, 0);
  const solved = scored.reduce((sum, o) => sum + o.solved, 0);
  return {
    group,
    instances: outcomes.length,
    invalid: outcomes.length - scored.length,
    attempts,
    solved,
    solveRate: attempts === 0 ? null : solved / attempts,
    passAt1: mean(scored.map((o) => passAtK(o.scored, o.solved, 1))),
    passAtK: mean(scored.map((o) => passAtK(o.scored, o.solved, k))),
  };
}

/** The `all` row, then one row per repo and per kind (sorted by name). Pure. */
export function evalTables(outcomes: InstanceOutcome[], k: number): { all: EvalRow; byRepo: EvalRow[]; byKind: EvalRow[] } {
  const groups = (key: (o: InstanceOutcome) => string): EvalRow[] => {
    const map = new Map<string, InstanceOutcome[]>();
    for (const outcome of outcomes) map.set(key(outcome), [...(map.get(key(outcome)) ?? []), outcome]);
    return [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([group, members]) => rowOf(group, members, k));
  };
  return { all: rowOf('all', outcomes, k), byRepo: groups((o) => o.repo), byKind: groups((o) => o.kind) };
}

const pct = (rate: number | null): string => (rate === null ? '-' : `${(100 * rate).toFixed(1)} %`);

/** The tables as text, for `ssr eval` without --json. */
export function formatEvalTables(tables: { all: EvalRow; byRepo: EvalRow[]; byKind: EvalRow[] }, k: number): string {
  // With k = 1, pass@k is pass@1: one column.
  const header = ['', 'instances', 'invalid', 'attempts', 'solved', 'solve rate', 'pass@1', ...(k > 1 ? [`pass@${k}`] : [])];
  const line = (row: EvalRow) => [row.group, row.instances, row.invalid, row.attempts, row.solved, pct(row.solveRate), pct(row.passAt1), ...(k > 1 ? [pct(row.passAtK)] : [])].map(String);
  const table = (title: string, rows: EvalRow[]): string => {
    const cells = [[title, ...header.slice(1)], ...rows.map(line)];
    const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
    return cells.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n');
  };
  return `${table('repo', [...tables.byRepo, tables.all])}\n\n${table('bug kind', [...tables.byKind, tables.all])}\n`;
}
