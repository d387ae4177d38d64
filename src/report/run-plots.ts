import type { RunAggregate, StepAggregate } from './aggregate.js';
import { EDGE_BAND, STRIP_KEY, type PlotSpec } from './plot-spec.js';
import { distributionStrip } from './plots/distribution-strip.js';
import { histogram } from './plots/histogram.js';
import { lineChart, type LineSeries } from './plots/line-chart.js';
import { COLORS, colorAt, warmColorAt } from './plots/palette.js';
import { stackedBars, type BarSeries } from './plots/stacked-bars.js';
import { effortPlots } from './effort-plots.js';
import { pipelinePlots } from './pipeline-plots.js';
import { stabilityPlots } from './stability-plots.js';

const MAX_MIX_SERIES = 9;

/** Stacked shares of a count table per step: the most frequent keys, the rest as "other". */
export function mixSeries(steps: readonly StepAggregate[], keys: readonly string[], pick: (step: StepAggregate) => Record<string, number>): BarSeries[] {
  const shown = keys.length > MAX_MIX_SERIES + 1 ? keys.slice(0, MAX_MIX_SERIES) : keys;
  const series = shown.map((key, index) => ({ name: key, color: colorAt(index), values: steps.map((step) => pick(step)[key] ?? 0) }));
  if (shown.length < keys.length) {
    const rest = new Set(keys.slice(shown.length));
    const values = steps.map((step) => Object.entries(pick(step)).reduce((sum, [key, value]) => sum + (rest.has(key) ? value : 0), 0));
    series.push({ name: `other (${rest.size})`, color: COLORS.other, values });
  }
  return series;
}

/**
 * The solve-rate chart's lines: order 1 and 2 per step, and with `--eval-set` the held-out solve
 * rate at the evaluated steps, opened by the starting policy's at step 0 (`--eval-every`) when the
 * run has it: the point every later one is measured against, so the axis gains a step 0 where
 * training has no value yet.
 */
function solveRateLines(run: RunAggregate): { categories: string[]; series: LineSeries[] } {
  const { steps, heldOutAtStart: start } = run;
  // Steps count from 1; a metrics line of step 0 (older runs) already has the category.
  const before = start && steps[0]?.step !== 0 ? [null] : [];
  const heldOut = steps.map((s) => s.heldOut?.solveRate ?? (s.step === 0 ? (start?.solveRate ?? null) : null));
  const series: LineSeries[] = [
    { name: 'order 1', color: COLORS.order1, values: [...before, ...steps.map((s) => s.solveRate.order1)] },
    { name: 'order 2 (higher-order)', color: COLORS.order2, values: [...before, ...steps.map((s) => s.solveRate.order2)], dash: true },
  ];
  if (start || steps.some((step) => step.heldOut !== null)) {
    series.push({ name: 'held-out (--eval-set, never trained on)', color: COLORS.heldOut, values: [...before.map(() => start!.solveRate), ...heldOut] });
  }
  return { categories: [...before.map(() => '0'), ...steps.map((step) => String(step.step))], series };
}

/** Every figure of a one-run report, in page order. Pure. */
export function runPlots(run: RunAggregate): PlotSpec[] {
  const steps = run.steps;
  const categories = steps.map((step) => String(step.step));
  const axis = { categories, xLabel: 'step' };
  const title = (text: string) => `${text} — ${run.name}`;
  const outcome: BarSeries[] = [
    { name: 'valid', color: COLORS.valid, values: steps.map((step) => step.valid) },
    ...run.keys.checks.map((check, index) => ({ name: `rejected: ${check}`, color: warmColorAt(index), values: steps.map((step) => step.rejections[check] ?? 0) })),
    { name: 'discarded (infrastructure)', color: COLORS.discarded, values: steps.map((step) => step.discarded) },
  ];
  return [
    {
      name: 'valid-rate', section: 'validity', title: 'Valid-bug rate',
      caption: 'Share of judged bugs that passed every check. A sudden drop: the Injector started breaking its own artifacts (parser, script). Stuck near 0: the prompt or thresholds are out of reach.',
      svg: lineChart({ ...axis, title: title('valid-bug rate'), yLabel: 'valid / judged bugs', yDomain: [0, 1], series: [{ name: 'valid rate', color: COLORS.valid, values: steps.map((s) => s.validRate) }] }),
    },
    {
      name: 'rejections', section: 'validity', title: 'Injection outcomes by check',
      caption: 'Every injection per step: valid, rejected by the first failing check, or discarded by the infrastructure. One check dominating tells you which instruction the Injector ignores; many discards point at the sandbox, not the policy.',
      svg: stackedBars({ ...axis, title: title('injection outcomes'), yLabel: 'episodes', series: outcome }),
    },
    {
      name: 'solve-rate', section: 'solving', title: 'Solve rate (order 1 and order 2)',
      caption: 'Solved attempts / scored attempts. Climbing to 1: bugs too easy, or the Solver found a hack (check the diffs). Pinned at 0: bugs too hard. The green band is where the Injector’s reward peaks. ' +
        'With --eval-set, the held-out line is the trained policy on bugs it never trains on: training rising while it falls is self-play overfitting to its own bugs.',
      svg: lineChart({ ...axis, ...solveRateLines(run), title: title('solve rate'), yLabel: 'solved / attempts', yDomain: [0, 1], band: EDGE_BAND }),
    },
    {
      name: 'solve-rate-histogram', section: 'solving', title: 'Per-bug solve rates (whole run)',
      caption: 'How many bugs were solved by what share of their attempts. A mass at 0 and 1 gives no learning signal (every attempt in the group earns the same reward).',
      svg: histogram({ title: title('per-bug solve rates'), xLabel: 'solve rate of the bug', yLabel: 'bugs', domain: [0, 1], bins: 10, series: [
        { name: 'order 1', color: COLORS.order1, values: run.bugSolveRates.order1 },
        { name: 'order 2', color: COLORS.order2, values: run.bugSolveRates.order2 },
      ] }),
    },
    // Only when something was flagged: an empty chart for every clean run would be noise.
    ...(run.keys.leaks.length === 0 ? [] : [{
      name: 'solver-leaks', section: 'solving', title: 'Solver leak attempts by kind',
      caption: 'Tool calls of Solver attempts that reached for the repo history, the artifact files, paths outside the repo, the network or package downloads (flagged by the leak scanner; `--leak-policy fail` makes such an attempt earn −1). Any bar here deserves a look at the trajectories: a rising one is a policy learning to look up the answer.',
      svg: stackedBars({ ...axis, title: title('leak attempts'), yLabel: 'flags', series: mixSeries(steps, run.keys.leaks, (s) => s.leaks) }),
    } satisfies PlotSpec]),
    {
      name: 'injector-reward', section: 'rewards', title: 'Injector reward',
      caption: `r = −1 invalid, −0.8 for solve rate 0 or 1, else 1 − 1.8·s. A mean rising while the valid rate falls, or a cluster at one value, hints at reward hacking. ${STRIP_KEY}`,
      svg: distributionStrip({ ...axis, title: title('injector reward'), yLabel: 'reward', yDomain: [-1, 1], series: [{ name: 'injector', color: COLORS.injector, values: steps.map((s) => s.rewards.injector) }] }),
    },
    {
      name: 'solver-reward', section: 'rewards', title: 'Solver reward',
      caption: `+1 when every test that passed on the original passes, else −1. The mean (◇) is 2·s − 1. ${STRIP_KEY}`,
      svg: distributionStrip({ ...axis, title: title('solver reward'), yLabel: 'reward', yDomain: [-1, 1], series: [{ name: 'solver', color: COLORS.solver, values: steps.map((s) => s.rewards.solver) }] }),
    },
    {
      name: 'bug-files', section: 'diversity', title: 'Bug size: files changed',
      caption: `Code files touched by bug_inject.diff. Shrinking to the minimum over time is a sign of the Injector settling on one easy pattern. ${STRIP_KEY}`,
      svg: distributionStrip({ ...axis, title: title('files changed per bug'), yLabel: 'files', series: [{ name: 'files', color: colorAt(0), values: steps.map((s) => s.bugSize.files) }] }),
    },
    {
      name: 'bug-lines', section: 'diversity', title: 'Bug size: lines changed',
      caption: `Added + removed lines of bug_inject.diff. One-line bugs only: tunnel vision; thousands of lines: the Injector is deleting whole modules. ${STRIP_KEY}`,
      svg: distributionStrip({ ...axis, title: title('lines changed per bug'), yLabel: 'lines', series: [{ name: 'lines', color: colorAt(1), values: steps.map((s) => s.bugSize.lines) }] }),
    },
    {
      name: 'strategy-mix', section: 'diversity', title: 'Strategy mix',
      caption: 'Share of injections per strategy. The default mixes removal and history; a bar of one colour means the mix collapsed.',
      svg: stackedBars({ ...axis, title: title('strategy mix'), yLabel: 'share of bugs', shares: true, series: mixSeries(steps, run.keys.strategies, (s) => s.strategies) }),
    },
    {
      name: 'operator-mix', section: 'diversity', title: 'Operator mix',
      caption: 'Share of bugs per mutation operator / change kind. Watch for one operator eating the bar over the steps.',
      svg: stackedBars({ ...axis, title: title('operator mix'), yLabel: 'share of changes', shares: true, series: mixSeries(steps, run.keys.operators, (s) => s.operators) }),
    },
    {
      name: 'diversity', section: 'diversity', title: 'Diversity (entropy)',
      caption: 'Shannon entropy of the mixes above, in bits (log₂ of the number of kinds when used equally). A line falling towards 0 is tunnel vision.',
      svg: lineChart({ ...axis, title: title('diversity'), yLabel: 'entropy (bits)', series: [
        { name: 'strategies', color: colorAt(0), values: steps.map((s) => s.entropy.strategies) },
        { name: 'operators', color: colorAt(1), values: steps.map((s) => s.entropy.operators) },
      ] }),
    },
    ...effortPlots(run),
    ...pipelinePlots(run),
    ...stabilityPlots(run),
  ];
}
