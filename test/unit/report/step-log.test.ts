import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl } from '../../../src/corpus/jsonl-file.js';
import { StepLog } from '../../../src/report/step-log/step-log.js';
import { stepScalars } from '../../../src/report/step-log/step-scalars.js';
import { stepMetricsSchema, type StepMetrics } from '../../../src/selfplay/step-metrics.js';
import { fixtureRun } from './fixture-runs.js';

const TRAINER = new URL('../../../trainer/', import.meta.url).pathname;

/** tensorboardX + tensorboard from the local package index (trainer/log-env; scripts/test builds it first). */
const logPython = (): string => execFileSync(join(TRAINER, 'log-env'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 }).trim();

/** Every scalar of a TensorBoard log dir, read back by tensorboard's own EventAccumulator. */
function readTensorBoard(python: string, dir: string): Record<string, Array<[number, number]>> {
  const script = [
    'import json, sys',
    'from tensorboard.backend.event_processing.event_accumulator import EventAccumulator',
    'acc = EventAccumulator(sys.argv[1]); acc.Reload()',
    'print(json.dumps({tag: [[e.step, e.value] for e in acc.Scalars(tag)] for tag in acc.Tags()["scalars"]}))',
  ].join('\n');
  return JSON.parse(execFileSync(python, ['-c', script, dir], { encoding: 'utf8' })) as Record<string, Array<[number, number]>>;
}

describe('--log-to: the Python log sink', () => {
  let dir: string;
  let python: string;
  let steps: StepMetrics[];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssr-step-log-'));
    python = logPython();
    steps = (await readJsonl(join(fixtureRun('selfplay-trainer'), 'metrics.jsonl'), stepMetricsSchema)).records.slice(0, 2);
  }, 300_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes two steps into a TensorBoard event file that tensorboard reads back scalar for scalar', async () => {
    const warnings: string[] = [];
    const log = await StepLog.open({ targets: ['tensorboard'], dir: join(dir, 'logs'), runDir: dir, name: 'two-steps', config: { seed: 0 }, python, warn: (line) => warnings.push(line) });
    for (const metrics of steps) log.log(metrics);
    await log.close();
    expect(warnings).toEqual([]);
    expect((await readdir(join(dir, 'logs', 'tensorboard'))).some((name) => name.startsWith('events.out.tfevents.'))).toBe(true);
    const read = readTensorBoard(python, join(dir, 'logs', 'tensorboard'));
    const [first, second] = steps.map(stepScalars);
    expect(Object.keys(read).sort()).toEqual(Object.keys({ ...first, ...second }).sort());
    expect(read['bugs/valid_rate']).toEqual([
      [steps[0]!.step, expect.closeTo(steps[0]!.validRate!, 5)],
      [steps[1]!.step, expect.closeTo(steps[1]!.validRate!, 5)],
    ]);
    expect(read['trainer/loss']?.map(([step]) => step)).toEqual(steps.filter((s) => s.trainer !== null).map((s) => s.step));
  }, 120_000);

  it('names the missing package and the pip command before any step is run', async () => {
    // Debian's python3 has neither wandb nor tensorboardX (scripts/setup-host installs neither).
    const open = StepLog.open({ targets: ['wandb'], dir: join(dir, 'logs-missing'), runDir: dir, name: 'x', config: {}, python: '/usr/bin/python3', warn: () => undefined });
    await expect(open).rejects.toThrow(/--log-to wandb: .*needs the Python package wandb.*\/usr\/bin\/python3 -m pip install wandb/);
  }, 60_000);

  it('a sink that dies mid-run is reported once and skipped; the run goes on', async () => {
    // Stands in for a python whose sink opened its writers and then died.
    const dying = join(dir, 'dying-python');
    await writeFile(dying, '#!/bin/sh\necho \'{"ready": true}\'\necho "disk full" >&2\nexit 1\n', { mode: 0o755 });
    const warnings: string[] = [];
    const log = await StepLog.open({ targets: ['tensorboard'], dir: join(dir, 'logs-dying'), runDir: dir, name: 'x', config: {}, python: dying, warn: (line) => warnings.push(line) });
    await log.close();
    log.log(steps[0]!);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/the log sink exited with 1; later steps are not logged to it \(metrics.jsonl has them\): disk full/);
  });

  it('an interpreter that does not exist is a usage error naming SSR_PYTHON', async () => {
    const open = StepLog.open({ targets: ['tensorboard'], dir: join(dir, 'logs-none'), runDir: dir, name: 'x', config: {}, python: join(dir, 'no-python'), warn: () => undefined });
    await expect(open).rejects.toThrow(/cannot start .*no-python.*SSR_PYTHON/);
  });
});

describe('stepScalars', () => {
  it('leaves out what a step does not have instead of logging 0', () => {
    const [line] = readJsonlSync();
    const scalars = stepScalars({ ...line!, validRate: null, trainer: null, solveRate: { order1: null, order2: 0.5 } });
    expect(scalars['bugs/valid_rate']).toBeUndefined();
    expect(scalars['solve/rate_order1']).toBeUndefined();
    expect(scalars['solve/rate_order2']).toBe(0.5);
    expect(Object.keys(scalars).some((name) => name.startsWith('trainer/'))).toBe(false);
    expect(Object.keys(scalars).some((name) => name.startsWith('anchor/'))).toBe(false);
  });

  it("logs an anchored step's anchor episodes and solve rate", () => {
    const [line] = readJsonlSync();
    const scalars = stepScalars({ ...line!, anchor: { episodes: 2, discarded: 0, invalid: 0, solverAttempts: 4, solved: 1, solveRate: 0.25 } });
    expect([scalars['anchor/episodes'], scalars['anchor/solve_rate']]).toEqual([2, 0.25]);
  });
});

function readJsonlSync(): StepMetrics[] {
  const text = readFileSync(join(fixtureRun('selfplay-trainer'), 'metrics.jsonl'), 'utf8');
  return text.trim().split('\n').map((line) => stepMetricsSchema.parse(JSON.parse(line)));
}
