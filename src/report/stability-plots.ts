import type { Stability } from '../selfplay/step-metrics.js';
import type { RunAggregate, StepAggregate } from './aggregate.js';
import { STRIP_KEY, type PlotSpec } from './plot-spec.js';
import { distributionStrip } from './plots/distribution-strip.js';
import { COLORS } from './plots/palette.js';
import { esc } from './plots/svg.js';
import { mean } from './stats.js';

/** One gibberish-output signal of metrics.jsonl's `stability` (method §10). */
export interface StabilityMetric {
  key: keyof Stability;
  /** Plot name (kebab-case, stable). */
  name: string;
  title: string;
  yLabel: string;
  caption: string;
  /** Why there is no value at all: of one run, of every run compared. */
  noData: { one: string; many: string };
}

export const STABILITY_METRICS: readonly StabilityMetric[] = [
  {
    key: 'outputTokens', name: 'output-tokens', title: 'Output tokens per turn', yLabel: 'completion tokens / turn',
    caption: 'Mean completion tokens per policy turn of each trajectory. A steady climb, or a jump to the length limit, is how gibberish at scale first shows.',
    noData: { one: 'this run recorded no policy turn', many: 'none of these runs recorded a policy turn' },
  },
  {
    key: 'formatErrorRate', name: 'format-error-rate', title: 'Format-error rate', yLabel: 'format errors / turns',
    caption: 'Share of a trajectory’s turns without exactly one valid tool call (none, several, unknown or malformed). Rising: the policy is losing the tool-call format.',
    noData: { one: 'this run recorded no policy turn', many: 'none of these runs recorded a policy turn' },
  },
  {
    key: 'sampledNll', name: 'sampled-nll', title: 'Sampled NLL (entropy proxy)', yLabel: 'nats / token',
    caption: 'Mean −log p of the tokens the policy sampled, an estimate of its per-token entropy. Falling towards 0: entropy collapse (one answer every time); climbing: the policy samples from a flat distribution (gibberish).',
    noData: { one: 'this run had no token logprobs (tokens mode only)', many: 'none of these runs had token logprobs (tokens mode only)' },
  },
];

/** A step's values of one signal for one role; none for a line written before `stability` existed. */
export function stabilityValues(step: StepAggregate, key: keyof Stability, role: 'injector' | 'solver'): number[] {
  return step.stability?.[key][role] ?? [];
}

/** Mean over both roles' trajectories of a step; null without any. */
export function stabilityMean(step: StepAggregate, key: keyof Stability): number | null {
  return mean([...stabilityValues(step, key, 'injector'), ...stabilityValues(step, key, 'solver')]);
}

function hasData(runs: readonly RunAggregate[], key: keyof Stability): boolean {
  return runs.some((run) => run.steps.some((step) => stabilityMean(step, key) !== null));
}

/** The signals some run has a value of: the others are left out of the page, and {@link stabilityNote} says why. */
export function stabilityMetricsWithData(runs: readonly RunAggregate[]): StabilityMetric[] {
  return STABILITY_METRICS.filter((metric) => hasData(runs, metric.key));
}

/**
 * What the Stability section says instead of the plots it leaves out (an empty chart reads as
 * "zero"); '' when nothing is left out.
 */
export function stabilityNote(runs: readonly RunAggregate[]): string {
  const missing = STABILITY_METRICS.filter((metric) => !hasData(runs, metric.key));
  if (missing.length === 0) return '';
  const one = runs.length === 1;
  const steps = runs.flatMap((run) => run.steps);
  let lines: string[];
  if (steps.length === 0) lines = ['No data: no complete step yet.'];
  else if (steps.every((step) => step.stability === null)) {
    lines = [`No data: ${one ? 'this run’s metrics.jsonl was' : 'the metrics.jsonl of these runs were'} written before output length, format-error rate and sampled NLL were recorded.`];
  } else lines = missing.map((metric) => `${metric.title}: no data: ${one ? metric.noData.one : metric.noData.many}.`);
  return lines.map((line) => `<p class="note">${esc(line)}</p>`).join('');
}

/** The Stability figures of a one-run report: per step and role, the distribution over trajectories. Pure. */
export function stabilityPlots(run: RunAggregate): PlotSpec[] {
  const categories = run.steps.map((step) => String(step.step));
  return stabilityMetricsWithData([run]).map((metric) => ({
    name: metric.name, section: 'stability', title: metric.title, caption: `${metric.caption} ${STRIP_KEY}`,
    svg: distributionStrip({ categories, xLabel: 'step', title: `${metric.title} — ${run.name}`, yLabel: metric.yLabel, series: [
      { name: 'injector', color: COLORS.injector, values: run.steps.map((step) => stabilityValues(step, metric.key, 'injector')) },
      { name: 'solver', color: COLORS.solver, values: run.steps.map((step) => stabilityValues(step, metric.key, 'solver')) },
    ] }),
  }));
}
