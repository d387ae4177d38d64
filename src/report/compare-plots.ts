import type { RunAggregate, StepAggregate } from './aggregate.js';
import { EDGE_BAND, type PlotSpec, type SectionId } from './plot-spec.js';
import { lineChart } from './plots/line-chart.js';
import { colorAt } from './plots/palette.js';
import { stabilityMean, stabilityMetricsWithData } from './stability-plots.js';
import { mean } from './stats.js';
import { TRAINER_METRICS } from './trainer-metrics.js';

interface ScalarMetric {
  name: string;
  section: SectionId;
  title: string;
  yLabel: string;
  caption: string;
  value: (step: StepAggregate) => number | null;
  yDomain?: [number, number];
  band?: typeof EDGE_BAND;
}

const both = (values: { injector: number[]; solver: number[] }): number | null => mean([...values.injector, ...values.solver]);

/** What the ablations compare: one number per run and step. */
export const COMPARED_METRICS: ScalarMetric[] = [
  { name: 'valid-rate', section: 'validity', title: 'Valid-bug rate', yLabel: 'valid / judged bugs', yDomain: [0, 1], caption: 'Share of judged bugs that passed every check.', value: (s) => s.validRate },
  { name: 'discard-rate', section: 'validity', title: 'Discarded episodes', yLabel: 'discarded / episodes', yDomain: [0, 1], caption: 'Infrastructure losses: these compare sandboxes and endpoints, not policies.', value: (s) => (s.episodes > 0 ? s.discarded / s.episodes : null) },
  { name: 'solve-rate-order1', section: 'solving', title: 'Solve rate, order 1', yLabel: 'solved / attempts', yDomain: [0, 1], band: EDGE_BAND, caption: 'The green band is where the Injector’s reward peaks.', value: (s) => s.solveRate.order1 },
  { name: 'solve-rate-order2', section: 'solving', title: 'Solve rate, order 2', yLabel: 'solved / attempts', yDomain: [0, 1], caption: 'Higher-order bugs built on failed repairs.', value: (s) => s.solveRate.order2 },
  { name: 'injector-reward', section: 'rewards', title: 'Mean injector reward', yLabel: 'reward', yDomain: [-1, 1], caption: 'Inject-only runs train on this alone: a rise without a matching solve-rate change is suspicious.', value: (s) => s.meanReward.injector },
  { name: 'solver-reward', section: 'rewards', title: 'Mean solver reward', yLabel: 'reward', yDomain: [-1, 1], caption: 'Self-play should beat repair-only here on fresh bugs.', value: (s) => s.meanReward.solver },
  { name: 'bug-lines', section: 'diversity', title: 'Mean lines changed per bug', yLabel: 'lines', caption: 'Bug size over the run.', value: (s) => mean(s.bugSize.lines) },
  { name: 'strategy-entropy', section: 'diversity', title: 'Strategy entropy', yLabel: 'entropy (bits)', caption: 'Falling towards 0: one strategy took over.', value: (s) => s.entropy.strategies },
  { name: 'operator-entropy', section: 'diversity', title: 'Operator entropy', yLabel: 'entropy (bits)', caption: 'Falling towards 0: tunnel vision on one kind of change.', value: (s) => s.entropy.operators },
  { name: 'turns', section: 'effort', title: 'Mean turns per episode', yLabel: 'turns', caption: 'Both roles together.', value: (s) => both(s.turns) },
  { name: 'tokens', section: 'effort', title: 'Mean tokens per episode', yLabel: 'tokens', caption: 'Both roles together; a blow-up precedes instability.', value: (s) => both(s.tokens) },
  { name: 'throughput', section: 'throughput', title: 'Episodes per hour', yLabel: 'episodes / hour', caption: 'Wall-clock throughput of each step.', value: (s) => s.perHour.episodes },
  { name: 'valid-per-hour', section: 'throughput', title: 'Valid bugs per hour', yLabel: 'valid bugs / hour', caption: 'The yield that feeds training.', value: (s) => s.perHour.validBugs },
  { name: 'stale-samples', section: 'samples', title: 'Stale samples dropped', yLabel: 'samples', caption: 'Dropped for being more than 8 policy versions old.', value: (s) => s.samples.stale },
];

/**
 * One overlay line chart per compared metric, plus the stability signals and whole-batch trainer
 * metrics that some run has (the page says which stability signals are left out). Pure.
 */
export function comparePlots(runs: readonly RunAggregate[]): PlotSpec[] {
  const stepNumbers = [...new Set(runs.flatMap((run) => run.steps.map((step) => step.step)))].sort((a, b) => a - b);
  const categories = stepNumbers.map(String);
  const seriesOf = (value: (step: StepAggregate) => number | null) =>
    runs.map((run, index) => {
      const byStep = new Map(run.steps.map((step) => [step.step, value(step)]));
      return { name: run.name, color: colorAt(index), values: stepNumbers.map((step) => byStep.get(step) ?? null) };
    });
  const trainer: ScalarMetric[] = TRAINER_METRICS.filter((metric) => runs.some((run) => run.trainerMetrics.includes(metric.key))).map((metric) => ({
    name: `trainer-${metric.key.replace(/_/g, '-')}`,
    section: 'trainer',
    title: `Trainer ${metric.label}`,
    yLabel: metric.label,
    caption: metric.caption,
    value: (step) => step.trainer?.[metric.key]?.all ?? null,
  }));
  const stability: ScalarMetric[] = stabilityMetricsWithData(runs).map((metric) => ({
    name: metric.name,
    section: 'stability',
    title: `Mean ${metric.title[0]!.toLowerCase()}${metric.title.slice(1)}`,
    yLabel: metric.yLabel,
    caption: `Mean over both roles’ trajectories. ${metric.caption}`,
    value: (step) => stabilityMean(step, metric.key),
  }));
  return [...COMPARED_METRICS, ...stability, ...trainer].map((metric) => ({
    name: metric.name,
    section: metric.section,
    title: metric.title,
    caption: metric.caption,
    svg: lineChart({ title: metric.title, xLabel: 'step', yLabel: metric.yLabel, categories, yDomain: metric.yDomain, band: metric.band, series: seriesOf(metric.value) }),
  }));
}
