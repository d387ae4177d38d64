import type { RunAggregate, StepAggregate } from './aggregate.js';
import { percent } from './format.js';
import type { PlotSpec } from './plot-spec.js';
import { lineChart } from './plots/line-chart.js';
import { COLORS, colorAt } from './plots/palette.js';
import { stackedBars } from './plots/stacked-bars.js';
import { esc } from './plots/svg.js';

/** The run's overlap: overlapped / training time, and the stale share of the samples; null without a train call. */
export function pipelineTotals(steps: readonly StepAggregate[]): { trainingMs: number; overlapMs: number; fraction: number | null; stale: number; samples: number } {
  const lines = steps.flatMap((step) => (step.pipeline ? [step] : []));
  const trainingMs = lines.reduce((sum, step) => sum + step.pipeline!.trainingMs, 0);
  const overlapMs = lines.reduce((sum, step) => sum + step.pipeline!.overlapMs, 0);
  const stale = lines.reduce((sum, step) => sum + step.samples.stale, 0);
  return { trainingMs, overlapMs, fraction: trainingMs > 0 ? overlapMs / trainingMs : null, stale, samples: stale + lines.reduce((sum, step) => sum + step.samples.written, 0) };
}

/** The section's one-line verdict (or why it is empty). */
export function pipelineNote(run: RunAggregate): string {
  if (run.steps.every((step) => step.pipeline === null)) return '<p class="note">No data: this run’s metrics.jsonl was written before the asynchronous loop recorded overlap and staleness.</p>';
  const t = pipelineTotals(run.steps);
  const overlap = t.fraction === null ? 'no train call in this run' : `${percent(t.fraction)} of the training time (${(t.overlapMs / 1000).toFixed(1)} of ${(t.trainingMs / 1000).toFixed(1)} s) overlapped sampling`;
  return `<p class="note">${esc(`${overlap}; ${t.stale} of ${t.samples} samples dropped as stale.`)}</p>`;
}

/** Per step: sampling, training and overlapped seconds; samples by version lag. Pure. */
export function pipelinePlots(run: RunAggregate): PlotSpec[] {
  const steps = run.steps;
  if (steps.every((step) => step.pipeline === null)) return [];
  const axis = { categories: steps.map((step) => String(step.step)), xLabel: 'step' };
  const seconds = (pick: (step: StepAggregate) => number) => steps.map((step) => (step.pipeline ? pick(step) / 1000 : null));
  const lags = [...new Set(steps.flatMap((step) => Object.keys(step.pipeline?.staleness ?? {})))].map(Number).sort((a, b) => a - b);
  return [
    {
      name: 'pipeline-overlap', section: 'pipeline', title: 'Sampling, training and their overlap',
      caption: 'Seconds per step: its episodes (sampling), its train call (training), and the part of that call during which later steps were sampling. Overlap near the training time: the trainer costs no wall time; 0: the loop runs synchronously.',
      svg: lineChart({ ...axis, title: `sampling vs training — ${run.name}`, yLabel: 'seconds', series: [
        { name: 'sampling', color: colorAt(0), values: seconds((s) => s.pipeline!.samplingMs) },
        { name: 'training', color: colorAt(1), values: seconds((s) => s.pipeline!.trainingMs) },
        { name: 'overlapped', color: COLORS.valid, values: seconds((s) => s.pipeline!.overlapMs), dash: true },
      ] }),
    },
    {
      name: 'staleness', section: 'pipeline', title: 'Staleness: samples by version lag',
      caption: 'Each step’s samples by how many versions older than the trained weights they were (lag above --max-staleness: dropped). Mass at lag 0 only: little overlap; growing lags: the trainer falls behind.',
      svg: stackedBars({ ...axis, title: `samples by version lag — ${run.name}`, yLabel: 'samples', series: lags.map((lag, index) => ({
        name: `lag ${lag}`, color: colorAt(index), values: steps.map((step) => step.pipeline?.staleness[lag] ?? 0),
      })) }),
    },
  ];
}
