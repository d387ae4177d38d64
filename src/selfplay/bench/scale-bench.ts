import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { stepMetricsSchema } from '../step-metrics.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/** One self-play run's throughput on a set of engines. */
export interface ScaleFigures {
  engines: readonly string[];
  episodes: number;
  valid: number;
  /** Wall time of the step's episodes (the metrics' samplingMs, else the step's duration): image sharing and the golden gate left out. */
  samplingMs: number;
  episodesPerHour: number;
}

export interface ScaleRunOptions {
  repo: string;
  episodes: number;
  attempts: number;
  slotsPerHost: number;
  seed: number;
}

/**
 * One real `ssr selfplay` step (procedural policy, no order-2 bugs) with a `--docker-host` per
 * engine, and its episodes per hour from its metrics line.
 */
export async function benchEngines(engines: readonly string[], options: ScaleRunOptions): Promise<ScaleFigures> {
  const out = mkdtempSync(join(tmpdir(), `ssr-bench-scale-${engines.length}-`));
  await run(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'selfplay', '--repo', options.repo, '--policy', 'procedural', '--strategy', 'direct', '--steps', '1',
      '--episodes-per-step', String(options.episodes), '--attempts', String(options.attempts), '--higher-order-cap', '0', '--seed', String(options.seed),
      '--slots-per-host', String(options.slotsPerHost), ...engines.flatMap((engine) => ['--docker-host', engine]), '--out', out, '--json'],
    { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  const [step] = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((line) => stepMetricsSchema.parse(JSON.parse(line)));
  if (!step) throw new Error(`no metrics line in ${out}`);
  const samplingMs = step.pipeline?.samplingMs ?? step.durationMs;
  return { engines, episodes: step.episodes, valid: step.valid, samplingMs, episodesPerHour: (step.episodes / samplingMs) * 3_600_000 };
}
