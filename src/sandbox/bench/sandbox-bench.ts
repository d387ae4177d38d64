import { spawnSync } from 'node:child_process';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import { silentProgress } from '../../util/progress.js';
import { errorMessage } from '../../util/engine-error.js';
import { createProvider, prepareTemplate } from '../sandbox-factory.js';
import { selectBackend } from '../select-backend.js';
import type { SandboxBackend, SandboxTemplate } from '../sandbox.js';
import { median } from '../../util/median.js';

/** One measured step: its samples in milliseconds. */
export interface BenchRow {
  backend: SandboxBackend | 'host';
  step: string;
  samples: number[];
}

export type BenchOutcome = { status: 'measured'; rows: BenchRow[] } | { status: 'skipped'; backend: SandboxBackend; reason: string };

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

/**
 * The baseline: starting a bare Python on the host, the cheapest thing a test run does. The real
 * interpreter is timed, not a wrapper such as a pyenv shim that would add its own startup.
 */
export function benchHostPython(runs: number): BenchRow {
  const resolved = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const python = resolved.status === 0 && resolved.stdout.trim() !== '' ? resolved.stdout.trim() : 'python3';
  const samples: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const start = performance.now();
    const result = spawnSync(python, ['-c', 'pass']);
    if (result.status !== 0) throw new Error(`python3 -c pass failed on the host: ${result.stderr?.toString() ?? result.error?.message}`);
    if (i > 0) samples.push(performance.now() - start); // the first run warms the page cache
  }
  return { backend: 'host', step: 'python3 -c pass', samples };
}

/** The step name of an acquire from a warm pool of `warm`. */
export const warmStep = (warm: number): string => `acquire (--warm ${warm})`;

/**
 * acquire (create+start), exec `true`, exec `python3 -c pass`, dispose: `runs` times each, after
 * one warm-up; then, in the same run, acquire from a warm pool of `warm` (0: skipped), each
 * sandbox used (`exec true`) and disposed before the next acquire, as an episode would.
 */
export async function benchBackend(backend: SandboxBackend, repo: ResolvedRepo, runs: number, warm = 0): Promise<BenchOutcome> {
  try {
    await selectBackend(backend);
  } catch (error) {
    return { status: 'skipped', backend, reason: errorMessage(error) };
  }
  const template = await prepareTemplate(repo, backend, silentProgress);
  const provider = createProvider(backend);
  const steps = ['acquire', 'exec true', 'exec python3 -c pass', 'dispose'];
  const samples: number[][] = steps.map(() => []);
  for (let i = 0; i <= runs; i++) {
    const [sandbox, acquire] = await timed(() => provider.acquire(template));
    const [, execTrue] = await timed(() => sandbox.exec('true'));
    const [, execPython] = await timed(() => sandbox.exec('python3 -c pass'));
    const [, dispose] = await timed(() => sandbox.dispose());
    if (i > 0) [acquire, execTrue, execPython, dispose].forEach((ms, step) => samples[step]!.push(ms));
  }
  const rows: BenchRow[] = steps.map((step, index) => ({ backend, step, samples: samples[index]! }));
  if (warm > 0) {
    const measured = await benchWarmAcquire(backend, template, runs, warm);
    rows.push({ backend, step: warmStep(warm), samples: measured.acquire }, { backend, step: 'exec true (warm)', samples: measured.execTrue });
  }
  return { status: 'measured', rows };
}

/** Warm acquires, and the first exec of each sandbox (a pooled one must answer as fast as a cold one). */
async function benchWarmAcquire(backend: SandboxBackend, template: SandboxTemplate, runs: number, warm: number): Promise<{ acquire: number[]; execTrue: number[] }> {
  const pool = createProvider(backend, warm);
  const samples = { acquire: [] as number[], execTrue: [] as number[] };
  try {
    for (let i = 0; i <= runs; i++) {
      const [sandbox, acquire] = await timed(() => pool.acquire(template));
      const [, execTrue] = await timed(() => sandbox.exec('true'));
      await sandbox.dispose();
      // The first acquire waits for the pool's first start: the warm-up.
      if (i > 0) {
        samples.acquire.push(acquire);
        samples.execTrue.push(execTrue);
      }
    }
  } finally {
    await pool.dispose?.();
  }
  return samples;
}

/** Sub-millisecond figures (a hand-over from a warm pool) keep their digits. */
const formatMs = (ms: number): string => (ms < 1 ? ms.toPrecision(2) : ms.toFixed(1));

/** Per run, acquire plus the first exec: what an episode waits for before its first command's answer. */
const untilFirstAnswer = (acquire: BenchRow, exec: BenchRow): number[] => acquire.samples.map((ms, i) => ms + exec.samples[i]!);

/**
 * Per backend: the warm acquire's median against the cold one's, measured in the same run; and
 * acquire plus first exec, since the pool's replacement starts while the sandbox handed out
 * runs its first command and may slow it.
 */
function warmComparisons(rows: readonly BenchRow[]): string[] {
  const lines: string[] = [];
  const find = (backend: BenchRow['backend'], step: string): BenchRow | undefined => rows.find((row) => row.backend === backend && row.step === step);
  for (const warm of rows.filter((row) => row.step.startsWith('acquire (--warm'))) {
    const [cold, coldExec, warmExec] = [find(warm.backend, 'acquire'), find(warm.backend, 'exec true'), find(warm.backend, 'exec true (warm)')];
    if (cold === undefined || coldExec === undefined || warmExec === undefined) continue;
    const [w, c] = [median(warm.samples), median(cold.samples)];
    lines.push(`${warm.backend}: ${warm.step} median ${formatMs(w)} ms vs cold acquire ${formatMs(c)} ms in the same run: ${(w / c).toPrecision(3)}x`);
    const [wa, ca] = [median(untilFirstAnswer(warm, warmExec)), median(untilFirstAnswer(cold, coldExec))];
    lines.push(`${warm.backend}: acquire + first exec median ${formatMs(wa)} ms warm vs ${formatMs(ca)} ms cold: ${(wa / ca).toPrecision(3)}x`);
  }
  return lines;
}

/** A plain-text table of medians with the ratio to the host baseline. */
export function renderBench(baseline: BenchRow, outcomes: BenchOutcome[], runs: number): string {
  const base = median(baseline.samples);
  const rows = [baseline, ...outcomes.flatMap((outcome) => (outcome.status === 'measured' ? outcome.rows : []))];
  const lines = [`median of ${runs} runs (after one warm-up); ratio = median / host python3 -c pass`, ''];
  lines.push(`${'backend'.padEnd(8)} ${'step'.padEnd(22)} ${'median ms'.padStart(10)} ${'min ms'.padStart(8)} ${'max ms'.padStart(8)} ${'ratio'.padStart(7)}`);
  for (const row of rows) {
    const value = median(row.samples);
    const cells = [value, Math.min(...row.samples), Math.max(...row.samples)].map(formatMs);
    lines.push(`${row.backend.padEnd(8)} ${row.step.padEnd(22)} ${cells[0]!.padStart(10)} ${cells[1]!.padStart(8)} ${cells[2]!.padStart(8)} ${(value / base).toFixed(2).padStart(6)}x`);
  }
  const comparisons = warmComparisons(rows);
  if (comparisons.length > 0) lines.push('', ...comparisons);
  for (const outcome of outcomes) if (outcome.status === 'skipped') lines.push(`skipped ${outcome.backend}: ${outcome.reason}`);
  return `${lines.join('\n')}\n`;
}
