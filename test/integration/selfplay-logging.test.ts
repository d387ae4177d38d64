import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProvenanceSchema } from '../../src/corpus/record-provenance.js';
import { heartbeatSchema } from '../../src/selfplay/heartbeat.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { ROOT } from './selfplay-helpers.js';

const COMMIT = 'a0fcf854bb26b37599c51843decfcb341a864f73';
const FILES = ['bug_inject.diff', 'test_weaken.diff', 'test_files.txt', 'test_script.sh', 'test_parser.py'];

/** One Injector episode: write five empty artifact files, submit them, stop (an invalid bug, rejected fast). */
const EPISODE = [
  { toolCall: { name: 'bash', arguments: { command: `mkdir -p /tmp/a && cd /tmp/a && touch ${FILES.join(' ')}` } } },
  { toolCall: { name: 'submit', arguments: Object.fromEntries(FILES.map((file) => [file.replace(/\.[a-z]+$/, ''), `/tmp/a/${file}`])) } },
  { content: 'Submitted.' },
];

describe('ssr selfplay --log-to tensorboard: two steps on pyledger (real Docker, real tensorboardX)', () => {
  let root: string;
  let out: string;
  let python: string;
  let run: CliRun;
  const previousPython = process.env.SSR_PYTHON;

  beforeAll(async () => {
    python = execFileSync(join(ROOT, 'trainer', 'log-env'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 }).trim();
    process.env.SSR_PYTHON = python;
    root = await mkdtemp(join(tmpdir(), 'ssr-logging-'));
    out = join(root, 'run');
    const reposFile = join(root, 'repos.yaml');
    await writeFile(reposFile, `repos:\n  - id: pyledger\n    source:\n      git: ${join(ROOT, 'examples', 'pyledger.bundle')}\n      commit: ${COMMIT}\n    image:\n      base: debian-python\n`);
    const script = join(root, 'script.json');
    await writeFile(script, JSON.stringify([...EPISODE, ...EPISODE]));
    run = await runCli([
      'selfplay', '--repo', 'pyledger', '--repos', reposFile, '--steps', '2', '--policy', 'scripted', '--policy-script', script,
      '--episodes-per-step', '1', '--attempts', '1', '--strategy', 'removal', '--no-golden-gate', '--log-to', 'tensorboard', '--out', out, '--json',
    ]);
    if (run.code !== 0) throw new Error(`ssr selfplay exited ${run.code}:\n${run.stderr.slice(-3000)}`);
  }, 600_000);

  afterAll(async () => {
    if (previousPython === undefined) delete process.env.SSR_PYTHON;
    else process.env.SSR_PYTHON = previousPython;
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('the event file holds both steps, read back by tensorboard', async () => {
    const dir = join(out, 'logs', 'tensorboard');
    expect((await readdir(dir)).filter((name) => name.startsWith('events.out.tfevents.'))).toHaveLength(1);
    const script = [
      'import json, sys',
      'from tensorboard.backend.event_processing.event_accumulator import EventAccumulator',
      'acc = EventAccumulator(sys.argv[1]); acc.Reload()',
      'print(json.dumps({tag: [[e.step, e.value] for e in acc.Scalars(tag)] for tag in acc.Tags()["scalars"]}))',
    ].join('\n');
    const scalars = JSON.parse(execFileSync(python, ['-c', script, dir], { encoding: 'utf8' })) as Record<string, Array<[number, number]>>;
    expect(scalars['episodes/total']).toEqual([[1, 1], [2, 1]]);
    expect(scalars['bugs/valid']).toEqual([[1, 0], [2, 0]]);
    expect(scalars['bugs/invalid']).toEqual([[1, 1], [2, 1]]);
  });

  it('run.json records the resolved settings, the image id of the repo and no model server', () => {
    const runJson = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { ssr: { version: string }; provenance: unknown };
    const provenance = runProvenanceSchema.parse(runJson.provenance);
    expect(provenance.ssr.version).toBe(runJson.ssr.version);
    expect(provenance.images.pyledger).toMatchObject({ backend: 'docker', imageId: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    const image = execFileSync('docker', ['image', 'inspect', '--format', '{{.Id}}', provenance.images.pyledger!.ref], { encoding: 'utf8' }).trim();
    expect(provenance.images.pyledger!.imageId).toBe(image);
    expect(provenance.server).toBeNull();
    expect(provenance.settings).toMatchObject({ steps: 2, backend: 'docker', apiKey: 'unset', flags: { logTo: ['tensorboard'], attempts: 1 }, settings: { attempts: 1, episodesPerStep: 1, lanes: { policy: 8 } } });
    expect((provenance.settings.env as Record<string, unknown>).SSR_PYTHON).toBe(python);
  });

  it('heartbeat.json says the run completed both steps', () => {
    const heartbeat = heartbeatSchema.parse(JSON.parse(readFileSync(join(out, 'heartbeat.json'), 'utf8')));
    expect(heartbeat).toMatchObject({ status: 'completed', step: 2, stepsDone: 2, episodesDone: 2, steps: 2, pid: process.pid });
  });
});

describe('ssr selfplay --log-to wandb with a Python that lacks wandb', () => {
  it('stops before the golden gate and any episode: exit 2, the package and the pip command', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ssr-logging-missing-'));
    const previous = process.env.SSR_PYTHON;
    process.env.SSR_PYTHON = '/usr/bin/python3';
    try {
      const reposFile = join(root, 'repos.yaml');
      await writeFile(reposFile, `repos:\n  - id: pyledger\n    source:\n      git: ${join(ROOT, 'examples', 'pyledger.bundle')}\n      commit: ${COMMIT}\n    image:\n      base: debian-python\n`);
      const out = join(root, 'run');
      const run = await runCli(['selfplay', '--repo', 'pyledger', '--repos', reposFile, '--steps', '1', '--policy', 'procedural', '--log-to', 'wandb', '--out', out]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--log-to wandb: .*needs the Python package wandb.*\/usr\/bin\/python3 -m pip install wandb/);
      expect(existsSync(join(out, 'golden-gate.json'))).toBe(false);
      expect(existsSync(join(out, 'episodes.jsonl'))).toBe(false);
      expect(JSON.parse(readFileSync(join(out, 'heartbeat.json'), 'utf8'))).toMatchObject({ status: 'failed', stepsDone: 0 });
    } finally {
      if (previous === undefined) delete process.env.SSR_PYTHON;
      else process.env.SSR_PYTHON = previous;
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
