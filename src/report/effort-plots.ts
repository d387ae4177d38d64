import { STAGES } from '../selfplay/step-metrics.js';
import type { RunAggregate } from './aggregate.js';
import { STRIP_KEY, type PlotSpec } from './plot-spec.js';
import { distributionStrip } from './plots/distribution-strip.js';
import { lineChart } from './plots/line-chart.js';
import { COLORS, colorAt } from './plots/palette.js';
import { stackedBars } from './plots/stacked-bars.js';
import { TRAINER_METRICS, TRAINER_SCOPES } from './trainer-metrics.js';

const SCOPE_COLORS = { all: '#3B3B3B', injector: COLORS.injector, solver: COLORS.solver } as const;

/** The effort, throughput, samples and trainer figures of a one-run report. Pure. */
export function effortPlots(run: RunAggregate): PlotSpec[] {
  const steps = run.steps;
  const axis = { categories: steps.map((step) => String(step.step)), xLabel: 'step' };
  const title = (text: string) => `${text} — ${run.name}`;
  const byRole = (pick: (role: 'injector' | 'solver') => ReadonlyArray<readonly number[]>) => [
    { name: 'injector', color: COLORS.injector, values: pick('injector') },
    { name: 'solver', color: COLORS.solver, values: pick('solver') },
  ];
  const plots: PlotSpec[] = [
    {
      name: 'turns', section: 'effort', title: 'Turns per episode',
      caption: `Policy turns per trajectory. Episodes pinned at the turn limit end without a submission; a sudden drop can mean the policy submits without working. ${STRIP_KEY}`,
      svg: distributionStrip({ ...axis, title: title('turns per episode'), yLabel: 'turns', series: byRole((role) => steps.map((s) => s.turns[role])) }),
    },
    {
      name: 'tokens', section: 'effort', title: 'Tokens per episode',
      caption: `Prompt + completion tokens per trajectory. Output length exploding is the first sign of the gibberish instability seen at scale. ${STRIP_KEY}`,
      svg: distributionStrip({ ...axis, title: title('tokens per episode'), yLabel: 'tokens', series: byRole((role) => steps.map((s) => s.tokens[role])) }),
    },
    {
      name: 'throughput', section: 'throughput', title: 'Throughput',
      caption: 'Episodes and valid bugs per wall-clock hour of each step. Valid bugs/hour is the yield that matters for training.',
      svg: lineChart({ ...axis, title: title('throughput'), yLabel: 'per hour', series: [
        { name: 'episodes / hour', color: colorAt(0), values: steps.map((s) => s.perHour.episodes) },
        { name: 'valid bugs / hour', color: COLORS.valid, values: steps.map((s) => s.perHour.validBugs) },
      ] }),
    },
    {
      name: 'stage-time', section: 'throughput', title: 'Time by stage',
      caption: 'Wall-clock seconds per stage of a step (stages overlap across episodes, so this is busy time, not a timeline). Validation dominating points at slow test suites.',
      svg: stackedBars({ ...axis, title: title('time by stage'), yLabel: 'seconds', unit: ' s', grouped: 'mean', series: STAGES.map((stage, index) => ({ name: stage, color: colorAt(index), values: steps.map((s) => s.stageMs[stage] / 1000) })) }),
    },
    {
      name: 'samples', section: 'samples', title: 'Samples written, stale and masked',
      caption: 'Samples written per step; stale = dropped for being more than --max-staleness policy versions old when trained; masked = kept for logging but out of the loss; zero-advantage groups teach nothing (all attempts equal).',
      svg: lineChart({ ...axis, title: title('training samples'), yLabel: 'samples / groups', series: [
        { name: 'written', color: colorAt(0), values: steps.map((s) => s.samples.written) },
        { name: 'stale (dropped)', color: colorAt(5), values: steps.map((s) => s.samples.stale) },
        { name: 'masked', color: colorAt(1), values: steps.map((s) => s.samples.masked) },
        { name: 'zero-advantage groups', color: colorAt(3), values: steps.map((s) => s.samples.zeroAdvantageGroups), dash: true },
      ] }),
    },
  ];
  for (const key of run.trainerMetrics) {
    const metric = TRAINER_METRICS.find((candidate) => candidate.key === key)!;
    const series = TRAINER_SCOPES.map((scope) => ({ name: scope === 'all' ? 'whole batch' : scope, color: SCOPE_COLORS[scope], values: steps.map((s) => s.trainer?.[key]?.[scope] ?? null) }))
      .filter((line) => line.values.some((value) => value !== null));
    plots.push({
      name: `trainer-${key.replace(/_/g, '-')}`, section: 'trainer', title: metric.label, caption: metric.caption, small: true,
      svg: lineChart({ ...axis, title: title(metric.label), yLabel: metric.label, series, width: 380, height: 230 }),
    });
  }
  return plots;
}
