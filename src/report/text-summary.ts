import type { EpisodeRecord } from '../corpus/episode-record.js';
import type { HeldOutMetrics } from '../evaluation/held-out/held-out-metrics.js';
import { aggregateRun, type StepAggregate } from './aggregate.js';
import { duration, fixed, percent, signed } from './format.js';
import type { Stability, StepMetrics } from '../selfplay/step-metrics.js';
import { pipelineTotals } from './pipeline-plots.js';
import { stabilityMean } from './stability-plots.js';
import { totalTestRuns, type TestRunCounts } from '../harness/test-run-counts.js';
import { anchorLine } from './anchor-section.js';

/** What the text summary needs of a run: a {@link RunData} fits, so do in-memory step lines. */
export interface TextSummaryInput {
  name: string;
  steps: readonly StepMetrics[];
  episodes?: readonly EpisodeRecord[];
  notes?: readonly string[];
  /** `--eval-every`: the starting policy's held-out result (step 0), first on the held-out line. */
  heldOutAtStart?: Pick<HeldOutMetrics, 'solveRate' | 'solved' | 'attempts' | 'overlaps'> | null;
}

export interface TextSummaryOptions {
  /** Show only the last steps (default 20); earlier ones are counted in one line. */
  maxSteps?: number;
}

const REJECTIONS_WIDTH = 30;

const COLUMNS: { head: string; width: number; cell: (step: StepAggregate) => string; left?: boolean }[] = [
  { head: 'step', width: 4, cell: (s) => String(s.step) },
  { head: 'eps', width: 4, cell: (s) => String(s.episodes) },
  { head: 'disc', width: 4, cell: (s) => String(s.discarded) },
  { head: 'valid', width: 11, cell: (s) => (s.judged === 0 ? '–' : `${s.valid}/${s.judged} ${percent(s.validRate)}`) },
  { head: 'rejections', width: REJECTIONS_WIDTH, left: true, cell: (s) => rejections(s.rejections) },
  { head: 'solve o1', width: 8, cell: (s) => percent(s.solveRate.order1) },
  { head: 'o2', width: 4, cell: (s) => percent(s.solveRate.order2) },
  { head: 'inj r', width: 6, cell: (s) => signed(s.meanReward.injector) },
  { head: 'sol r', width: 6, cell: (s) => signed(s.meanReward.solver) },
  { head: 'H strat', width: 7, cell: (s) => fixed(s.entropy.strategies) },
  { head: 'H ops', width: 5, cell: (s) => fixed(s.entropy.operators) },
  { head: 'runs', width: 9, cell: (s) => testRunsCell(s.testRuns) },
  { head: 'eps/h', width: 6, cell: (s) => fixed(s.perHour.episodes, 1) },
  { head: 'stale', width: 5, cell: (s) => String(s.samples.stale) },
];

/** All test runs of the step / the full-suite ones among them; – for a line written before they were counted. */
function testRunsCell(counts: TestRunCounts): string {
  const { runs, full } = totalTestRuns(counts);
  return runs === 0 ? '–' : `${runs}/${full}`;
}

/** The step's test runs by kind, `kind full+restricted`, for the line under the table. */
export function testRunsLine(steps: readonly StepAggregate[]): string | null {
  const shown = steps.filter((step) => totalTestRuns(step.testRuns).runs > 0);
  if (shown.length === 0) return null;
  const kinds = (counts: TestRunCounts): string =>
    Object.entries(counts).map(([kind, n]) => `${kind} ${n.full}${n.restricted > 0 ? `+${n.restricted}r` : ''}`).join(', ');
  return `test runs by kind (full+restricted): ${shown.map((step) => `step ${step.step}: ${kinds(step.testRuns)}`).join('; ')}`;
}

function rejections(counts: Record<string, number>): string {
  const text = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([check, n]) => `${check} ${n}`)
    .join(', ');
  if (text === '') return '–';
  return text.length > REJECTIONS_WIDTH ? `${text.slice(0, REJECTIONS_WIDTH - 1)}…` : text;
}

function row(cells: string[]): string {
  return COLUMNS.map((column, index) => (column.left ? cells[index]!.padEnd(column.width) : cells[index]!.padStart(column.width))).join('  ').trimEnd();
}

const STABILITY_TEXT: { key: keyof Stability; label: string; show: (value: number) => string; unit: string; none: string }[] = [
  { key: 'outputTokens', label: 'output', show: (v) => String(Math.round(v)), unit: 'tokens/turn', none: 'no policy turn' },
  { key: 'formatErrorRate', label: 'format errors', show: (v) => `${(v * 100).toFixed(1)}%`, unit: 'of turns', none: 'no policy turn' },
  { key: 'sampledNll', label: 'sampled NLL', show: (v) => v.toFixed(2), unit: 'nats/token', none: 'no token logprobs: tokens mode only' },
];

/** One line of the method §10 instability signals: each as its step mean (both roles), first → last step that has one. */
export function stabilityLine(steps: readonly StepAggregate[]): string {
  if (steps.every((step) => step.stability === null)) return 'stability: not in this metrics.jsonl (written before output length, format-error rate and sampled NLL were recorded)';
  const parts = STABILITY_TEXT.map(({ key, label, show, unit, none }) => {
    const means = steps.map((step) => stabilityMean(step, key)).filter((value): value is number => value !== null);
    if (means.length === 0) return `${label} – (${none})`;
    return `${label} ${means.length === 1 ? show(means[0]!) : `${show(means[0]!)} → ${show(means.at(-1)!)}`} ${unit}`;
  });
  return `stability (step mean over both roles, first → last step): ${parts.join(', ')}`;
}

/**
 * The run report's figures as plain text for the terminal (the end of `ssr selfplay` / `ssr
 * corpus`, and `ssr report`): one headline, then per step the valid rate, rejections by check,
 * solve rates by order, mean rewards, diversity (entropy in bits) and throughput; then one line of
 * stability signals. Pure.
 */
export function formatTextSummary(run: TextSummaryInput, options: TextSummaryOptions = {}): string {
  const agg = aggregateRun({ name: run.name, steps: run.steps, episodes: run.episodes ?? [] });
  const t = agg.totals;
  const lines = [
    `run ${run.name}: ${agg.steps.length} step(s), ${t.episodes} episodes (${t.discarded} discarded), ` +
      `${t.valid}/${t.judged} valid bugs (${percent(t.validRate)}), solve rate ${percent(t.solveRate)} (${t.solved}/${t.solverAttempts}), ` +
      `mean reward injector ${signed(t.meanReward.injector)} solver ${signed(t.meanReward.solver)}, ${duration(t.durationMs)}`,
  ];
  if (agg.steps.length === 0) lines.push('  no complete step in metrics.jsonl yet');
  else {
    const maxSteps = options.maxSteps ?? 20;
    const shown = agg.steps.slice(-maxSteps);
    lines.push(row(COLUMNS.map((column) => column.head)));
    if (shown.length < agg.steps.length) lines.push(`  … ${agg.steps.length - shown.length} earlier step(s) not shown (ssr report draws them all)`);
    for (const step of shown) lines.push(row(COLUMNS.map((column) => column.cell(step))));
    lines.push('H = entropy of the strategy / operator mix in bits (falling to 0: tunnel vision); runs = test runs started / full-suite ones; eps/h = episodes per hour; stale = samples dropped as too old');
    const runsLine = testRunsLine(shown);
    if (runsLine) lines.push(runsLine);
    lines.push(stabilityLine(agg.steps));
    const anchoring = anchorLine(run.steps);
    if (anchoring) lines.push(anchoring);
    const leaks = Object.entries(agg.steps.reduce<Record<string, number>>((all, step) => {
      for (const [kind, n] of Object.entries(step.leaks)) all[kind] = (all[kind] ?? 0) + n;
      return all;
    }, {}));
    if (leaks.length > 0) lines.push(`leak flags (Solver tool calls that reached for what they must not), by kind: ${leaks.map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
    const start = run.heldOutAtStart ? [{ step: 0, heldOut: run.heldOutAtStart }] : [];
    const heldOut = [...start, ...agg.steps.filter((step) => step.heldOut !== null).map((step) => ({ step: step.step, heldOut: step.heldOut! }))];
    if (heldOut.length > 0) {
      const points = heldOut.map((point) => `${point.step === 0 ? 'start' : `step ${point.step}`} ${percent(point.heldOut.solveRate)} (${point.heldOut.solved}/${point.heldOut.attempts})`);
      lines.push(`held-out solve rate (--eval-set, never trained on): ${points.join(', ')}; train/eval overlaps ${heldOut.at(-1)!.heldOut.overlaps}`);
    }
    const pipeline = pipelineTotals(agg.steps);
    if (pipeline.fraction !== null) {
      lines.push(`asynchronous steps: ${percent(pipeline.fraction)} of the training time overlapped sampling (${duration(pipeline.overlapMs)} of ${duration(pipeline.trainingMs)}); ${pipeline.stale} of ${pipeline.samples} samples dropped as stale`);
    }
  }
  for (const note of run.notes ?? []) lines.push(`note: ${note}`);
  return `${lines.join('\n')}\n`;
}
