import type { StepMetrics } from '../step-metrics.js';

/** A finished (or partly finished) variant run: its name and its metrics lines. */
export interface VariantRun {
  name: string;
  metrics: readonly StepMetrics[];
}

/** The mean of some numbers; null for none. */
export const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length);

/** Rows as a text table: each column as wide as its widest cell, the first `leftColumns` padded left-aligned, the rest right-aligned. */
export function alignColumns(rows: readonly (readonly string[])[], leftColumns: number): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return `${rows.map((row) => row.map((cell, i) => (i < leftColumns ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n')}\n`;
}
const fixed = (value: number | null, signed = false): string => (value === null ? '—' : `${signed && value >= 0 ? '+' : ''}${value.toFixed(3)}`);
const rate = (num: number, den: number): number | null => (den === 0 ? null : num / den);

const HEAD = ['variant', 'step', 'valid rate', 'solve rate o1', 'solve rate o2', 'r_inject', 'r_solve', 'samples'];

function cells(name: string, step: string, lines: readonly StepMetrics[]): string[] {
  const judged = lines.reduce((n, l) => n + l.valid + Object.values(l.invalidByCheck).reduce((a, b) => a + b, 0), 0);
  const valid = lines.reduce((n, l) => n + l.valid, 0);
  // The `all` row averages the steps' rates (a step does not record its attempts per order).
  const stepMean = (order: 'order1' | 'order2'): number | null => mean(lines.flatMap((l) => (l.solveRate[order] === null ? [] : [l.solveRate[order]!])));
  return [
    name,
    step,
    fixed(rate(valid, judged)),
    fixed(stepMean('order1')),
    fixed(stepMean('order2')),
    fixed(mean(lines.flatMap((l) => l.rewards.injector)), true),
    fixed(mean(lines.flatMap((l) => l.rewards.solver)), true),
    String(lines.reduce((n, l) => n + l.samples.written, 0)),
  ];
}

/**
 * One table comparing ablation variants step by step: valid rate, solve rate of order-1 and
 * order-2 bugs, mean rewards per role, samples written; a row `all` per variant pools its steps
 * (valid rate and rewards over all episodes, solve rates as the mean of the steps').
 */
export function formatComparison(runs: readonly VariantRun[]): string {
  const rows = [HEAD];
  for (const run of runs) {
    const lines = [...run.metrics].sort((a, b) => a.step - b.step);
    for (const line of lines) rows.push(cells(run.name, String(line.step), [line]));
    rows.push(cells(run.name, lines.length === 0 ? '(none)' : 'all', lines));
  }
  return alignColumns(rows, 2);
}
