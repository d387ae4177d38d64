import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodeRecordSchema, type EpisodeRecord } from '../../src/corpus/episode-record.js';
import { silentProgress } from '../../src/util/progress.js';
import { prepareTemplate } from '../../src/sandbox/sandbox-factory.js';
import { episodeLines, miniRepo, spawnCli, waitFor } from './selfplay-helpers.js';

/**
 * A private Docker engine for this test only: the shared one serves every other test running in
 * parallel and must never be stopped. Short paths: a unix socket path is limited to 108 bytes.
 */
class PrivateDockerd {
  readonly socket: string;
  private process: ChildProcess | undefined;

  constructor(readonly dir: string) {
    this.socket = join(dir, 'docker.sock');
  }

  get host(): string {
    return `unix://${this.socket}`;
  }

  async start(): Promise<void> {
    const log = openSync(join(this.dir, 'dockerd.log'), 'a');
    this.process = spawn(
      'dockerd',
      ['--iptables=false', '--bridge=none', '--host', this.host, '--data-root', join(this.dir, 'data'), '--exec-root', join(this.dir, 'exec'),
        '--pidfile', join(this.dir, 'dockerd.pid'), '--storage-driver=overlay2'],
      { stdio: ['ignore', log, log] },
    );
    await waitFor('the private dockerd', () => this.answers(), 60_000);
  }

  answers(): boolean {
    try {
      execFileSync('docker', ['-H', this.host, 'version', '--format', '{{.Server.Version}}'], { stdio: 'ignore', timeout: 5000 });
      return true;
    } catch {
      return false;
    }
  }

  /** Copy an image of the shared engine into this one. */
  loadImage(tag: string): void {
    execFileSync('bash', ['-o', 'pipefail', '-c', `docker save "$1" | docker -H "$2" load`, 'load', tag, this.host], { stdio: 'ignore' });
  }

  /**
   * Stop the engine as `systemctl stop docker` does (SIGTERM): it closes its API at once, then
   * stops its containers and exits. Resolves once the process is gone.
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 60_000))]);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

/**
 * How the run names the engine's loss. An engine stopping on SIGTERM may still answer for a moment
 * (its ping too) while it refuses to start containers (HTTP 500 from libnetwork): then the run stops
 * on that many infrastructure failures in a row instead (sandboxes started ahead of their runs meet
 * that moment together), which is the same stop: exit 2, episodes discarded, no reward.
 */
const ENGINE_GONE = '(the Docker engine is unreachable|\\d+ infrastructure failures in a row)';

describe('ssr selfplay when the Docker engine stops mid-step', () => {
  let dockerd: PrivateDockerd;
  let out: string;
  let result: { code: number | null; stdout: string; stderr: string };
  let records: EpisodeRecord[];

  beforeAll(async () => {
    const dir = await mkdtemp('/tmp/ssrd-');
    out = join(dir, 'run');
    const repo = await miniRepo();
    const template = await prepareTemplate(repo, 'docker', silentProgress);
    dockerd = new PrivateDockerd(dir);
    await dockerd.start();
    dockerd.loadImage(template.ref);

    const run = spawnCli(
      ['selfplay', '--repo', repo.location, '--steps', '1', '--policy', 'procedural', '--seed', '5', '--episodes-per-step', '2', '--attempts', '2',
        '--strategy', 'direct', '--solver-max-turns', '24', '--sandbox', 'docker', '--out', out, '--json'],
      { ...process.env, DOCKER_HOST: dockerd.host },
    );
    // Stop the engine while Solver attempts are at work: some attempt's trajectory has a few turns.
    const solving = () =>
      existsSync(join(out, 'trajectories')) &&
      readdirSync(join(out, 'trajectories')).some((name) => /-a\d+\.jsonl$/.test(name) && readFileSync(join(out, 'trajectories', name), 'utf8').split('\n').length > 4);
    await Promise.race([waitFor('Solver attempts at work', solving, 240_000), run.done]);
    await dockerd.stop();
    result = await run.done;
    records = episodeLines(out).map((line) => episodeRecordSchema.parse(line));
  }, 600_000);

  afterAll(async () => {
    await dockerd?.stop('SIGKILL');
    if (dockerd) await rm(dockerd.dir, { recursive: true, force: true }).catch(() => undefined);
  });

  it('ends with exit code 2 and a clear message', () => {
    expect(result.code, result.stderr.slice(-2000)).toBe(2);
    expect(result.stderr, result.stderr.slice(-3000)).toMatch(new RegExp(`ssr selfplay: stopped: ${ENGINE_GONE}`));
    expect(result.stderr).toMatch(/Re-run the same command to continue/);
    expect(JSON.parse(result.stdout)).toMatchObject({ steps: 0, outDir: out });
  });

  it('marks the affected episodes discarded with the reason and emits no reward for them', () => {
    const discarded = records.filter((record) => record.status === 'discarded');
    expect(discarded.length).toBeGreaterThanOrEqual(1);
    for (const record of discarded) {
      expect(record.discardReason).toMatch(new RegExp(`^(engine-stopped: the run stopped: ${ENGINE_GONE}|[a-z]+:docker-unavailable: )`));
      expect(record.rewards).toEqual({ injector: null, solver: [] });
      expect(record.solverAttempts).toBe(0);
    }
  });

  it('keeps what finished, and leaves the step open for a re-run: no metrics line, no samples', () => {
    expect(existsSync(join(out, 'metrics.jsonl'))).toBe(false);
    expect(readdirSync(join(out, 'samples'))).toEqual([]);
    expect(existsSync(join(out, 'run.json'))).toBe(true);
    for (const record of records.filter((r) => r.status === 'completed')) expect(existsSync(join(out, 'bugs', record.bugId ?? 'none'))).toBe(record.bugId !== null);
  });
});
