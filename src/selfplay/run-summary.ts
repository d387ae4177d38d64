import { formatDuration } from './selfplay-progress.js';
import type { StepMetrics } from './step-metrics.js';

/** What the summary reads of a metrics line (a StepMetrics satisfies it). */
export type SummaryLine = Pick<
  StepMetrics,
  'step' | 'policyVersion' | 'durationMs' | 'episodes' | 'discarded' | 'valid' | 'invalidByCheck' | 'validRate' | 'solverAttempts' | 'solved' | 'solveRate' | 'higherOrder' | 'rewards' | 'samples'
>;

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length);
const fixed = (value: number | null, digits = 2, signed = false): string => (value === null ? '—' : `${signed && value >= 0 ? '+' : ''}${value.toFixed(digits)}`);

const COLUMNS = ['step', 'episodes', 'discarded', 'valid', 'solve o1', 'solve o2', 'order-2', 'r_inject', 'r_solve', 'samples', 'version', 'time'];

function row(line: SummaryLine): string[] {
  return [
    String(line.step),
    String(line.episodes),
    String(line.discarded),
    line.validRate === null ? '—' : `${line.valid} (${fixed(line.validRate)})`,
    fixed(line.solveRate.order1),
    fixed(line.solveRate.order2),
    String(line.higherOrder),
    fixed(mean(line.rewards.injector), 3, true),
    fixed(mean(line.rewards.solver), 3, true),
    String(line.samples.written),
    String(line.policyVersion),
    formatDuration(line.durationMs),
  ];
}

/**
 * A plain-text table of a run's steps (one row per metrics.jsonl line, then totals): valid
 * bugs and rate, solve rates of order-1 and order-2 bugs, mean rewards per role, samples, policy
 * version, wall time. `ssr selfplay` prints it on stderr at the end of every run; the report
 * reuses it for the terminal.
 */
export function formatRunSummary(metricsLines: readonly SummaryLine[]): string {
  if (metricsLines.length === 0) return 'no step finished yet\n';
  const lines = [...metricsLines].sort((a, b) => a.step - b.step);
  const all = <T>(pick: (line: SummaryLine) => T[]): T[] => lines.flatMap(pick);
  const sum = (pick: (line: SummaryLine) => number): number => lines.reduce((total, line) => total + pick(line), 0);
  const judged = sum((line) => line.valid + Object.values(line.invalidByCheck).reduce((n, v) => n + v, 0));
  const attempts = sum((line) => line.solverAttempts);
  const total = [
    'all',
    String(sum((line) => line.episodes)),
    String(sum((line) => line.discarded)),
    judged === 0 ? '—' : `${sum((line) => line.valid)} (${fixed(sum((line) => line.valid) / judged)})`,
    attempts === 0 ? '—' : `${sum((line) => line.solved)}/${attempts}`,
    '',
    String(sum((line) => line.higherOrder)),
    fixed(mean(all((line) => line.rewards.injector)), 3, true),
    fixed(mean(all((line) => line.rewards.solver)), 3, true),
    String(sum((line) => line.samples.written)),
    String(lines.at(-1)!.policyVersion),
    formatDuration(sum((line) => line.durationMs)),
  ];
  const table = [COLUMNS, ...lines.map(row), total];
  const widths = COLUMNS.map((_, i) => Math.max(...table.map((cells) => cells[i]!.length)));
  return `${table.map((cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n')}\n`;
}
