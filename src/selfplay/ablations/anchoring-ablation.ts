import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { readJsonl } from '../../corpus/jsonl-file.js';
import { runPaths } from '../../corpus/run-layout.js';
import { EngineError } from '../../util/engine-error.js';
import { stepMetricsSchema, type StepMetrics } from '../step-metrics.js';
import { alignColumns, mean } from './comparison-table.js';
import { takeOption, type RunCli } from './run-ablation.js';

/** The flags `ssr eval` shares with `ssr selfplay` that the held-out eval of a variant repeats (the policy, the repos, the sandboxes). */
const EVAL_FLAGS = [
  '--policy', '--base-url', '--model', '--api-key', '--temperature', '--top-p', '--top-k', '--sampler-logprobs', '--max-tokens', '--seed', '--tool-protocol',
  '--tool-parser', '--max-context', '--policy-script', '--repos', '--sandbox', '--max-turns', '--leak-policy',
];

/** What the comparison needs of one variant: its steps and, with `--eval-set`, its held-out solve rate. */
export interface AnchoringVariant {
  name: 'plain' | 'anchored';
  metrics: readonly StepMetrics[];
  heldOut: number | null;
}

const evalSummarySchema = z.looseObject({ all: z.looseObject({ solveRate: z.number().nullable() }) });

/** The synthetic order-1 solve rate as the mean of the steps' (a step does not record its attempts per order), as comparison-table does. */
function trainingSolveRate(metrics: readonly StepMetrics[]): number | null {
  return mean(metrics.flatMap((line) => (line.solveRate.order1 === null ? [] : [line.solveRate.order1])));
}

function anchorSolveRate(metrics: readonly StepMetrics[]): number | null {
  const solved = metrics.reduce((sum, line) => sum + (line.anchor?.solved ?? 0), 0);
  const attempts = metrics.reduce((sum, line) => sum + (line.anchor?.solverAttempts ?? 0), 0);
  return attempts === 0 ? null : solved / attempts;
}

const show = (value: number | null): string => (value === null ? '—' : value.toFixed(3));
const ratio = (a: number | null, b: number | null): string => (a === null || b === null || b === 0 ? '—' : `×${(a / b).toFixed(2)}`);

/**
 * The side-by-side table: per variant the training (synthetic order-1) solve rate as the mean of
 * its steps', the anchor solve rate over every anchor attempt, and the held-out solve rate when
 * an eval set was given; then the anchored / plain ratio of each.
 */
export function formatAnchoringComparison(variants: readonly AnchoringVariant[]): string {
  const head = ['variant', 'steps', 'training solve rate (synthetic o1)', 'anchor solve rate', 'held-out solve rate'];
  const values = variants.map((v) => [trainingSolveRate(v.metrics), anchorSolveRate(v.metrics), v.heldOut] as const);
  const rows = [head, ...variants.map((v, i) => [v.name, String(v.metrics.length), ...values[i]!.map(show)])];
  const plain = variants.findIndex((v) => v.name === 'plain');
  const anchored = variants.findIndex((v) => v.name === 'anchored');
  if (plain >= 0 && anchored >= 0) rows.push(['anchored / plain', '', ...[0, 1, 2].map((k) => ratio(values[anchored]![k]!, values[plain]![k]!))]);
  return alignColumns(rows, 1);
}

/** The `ssr eval` flags of a variant's held-out eval: the user's policy, repos and sandbox flags. */
function evalFlags(argv: readonly string[]): string[] {
  const flags: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split('=')[0]!;
    if (EVAL_FLAGS.includes(name)) flags.push(...(arg.includes('=') ? [arg] : [arg, argv[++i]!]));
  }
  return flags;
}

/**
 * `scripts/ablate-anchoring`: plain and anchored self-play on the same seed and repos, `ssr
 * selfplay <user flags> --out <out>/plain` then the same with `--anchor-set S --anchor-ratio p`
 * into `<out>/anchored` (each resumable); with `--eval-set E` each variant's policy is then
 * measured on E by `ssr eval` (`<out>/<variant>/eval`); then the side-by-side table. The policy is
 * the procedural one unless `--policy` says otherwise.
 * @returns the first non-zero exit code of a run, else 0.
 */
export async function runAnchoringAblation(argv: readonly string[], cli: RunCli, stdout: NodeJS.WritableStream = process.stdout): Promise<number> {
  const args = [...argv];
  const out = takeOption(args, '--out');
  const set = takeOption(args, '--anchor-set');
  const ratio = takeOption(args, '--anchor-ratio') ?? '0.25';
  const evalSet = takeOption(args, '--eval-set');
  if (out === undefined || set === undefined) throw new EngineError('usage', 'ablate-anchoring: give --out <dir> and --anchor-set <dir|file.jsonl> (plain and anchored runs go to <dir>/plain and <dir>/anchored)');
  if (!args.some((arg) => arg === '--policy' || arg.startsWith('--policy='))) args.push('--policy', 'procedural');
  const root = resolve(out);
  const variants: AnchoringVariant[] = [];
  for (const [name, extra] of [['plain', []], ['anchored', ['--anchor-set', resolve(set), '--anchor-ratio', ratio]]] as const) {
    const dir = join(root, name);
    process.stderr.write(`ablate-anchoring: variant ${name} → ${dir}\n`);
    const code = await cli(['selfplay', ...args, '--out', dir, ...extra]);
    if (code !== 0) return code;
    let heldOut: number | null = null;
    if (evalSet !== undefined) {
      const evalCode = await cli(['eval', ...evalFlags(args), '--set', resolve(evalSet), '--out', join(dir, 'eval')]);
      if (evalCode !== 0) return evalCode;
      heldOut = evalSummarySchema.parse(JSON.parse(await readFile(join(dir, 'eval', 'eval.json'), 'utf8'))).all.solveRate;
    }
    const metricsPath = runPaths(dir).metrics;
    variants.push({ name, metrics: existsSync(metricsPath) ? (await readJsonl(metricsPath, stepMetricsSchema)).records : [], heldOut });
  }
  stdout.write(formatAnchoringComparison(variants));
  return 0;
}
