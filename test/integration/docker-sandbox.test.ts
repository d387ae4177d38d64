import { hostname } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { silentProgress } from '../../src/util/progress.js';
import { dockerClient, imageExists } from '../../src/sandbox/docker/docker-client.js';
import { DockerProvider } from '../../src/sandbox/docker/docker-provider.js';
import { OWNER_LABEL, ownerLabelValue, removeOrphanSandboxes } from '../../src/sandbox/docker/orphan-sweep.js';
import { ensureRepoImage, repoImageTag } from '../../src/sandbox/docker/repo-image.js';
import type { Sandbox, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { EngineError } from '../../src/util/engine-error.js';
import type { ResolvedRepo } from '../../src/config/resolve-repo.js';
import { dockerTemplate, exampleRepo, tinyRepo, withSandbox } from '../helpers/sandboxes.js';

let repo: ResolvedRepo;
let template: SandboxTemplate;
const provider = new DockerProvider();

beforeAll(async () => {
  repo = await exampleRepo();
  template = await dockerTemplate(repo);
});

/** A template with tighter limits than the repo's defaults. */
function limited(limits: Partial<SandboxTemplate['limits']>): SandboxTemplate {
  return { ...template, limits: { ...template.limits, ...limits } };
}

async function processes(sandbox: Sandbox): Promise<string> {
  return (await sandbox.exec('ps -eo pid,stat,args')).output;
}

describe('DockerSandbox exec', () => {
  it('round-trips output, starting in /repo at the pinned commit on main', async () => {
    await withSandbox(template, async (sandbox) => {
      expect(sandbox.backend).toBe('docker');
      const result = await sandbox.exec('pwd; git rev-parse --abbrev-ref HEAD; git status --porcelain; git remote; git branch; echo err >&2');
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, droppedBytes: 0 });
      expect(result.output).toBe('/repo\nmain\n* main\nerr\n');
      expect((await sandbox.exec('git rev-parse HEAD')).output.trim()).toBe(repo.commit);
      // Full history, for the injector's history strategy.
      expect(Number((await sandbox.exec('git rev-list --count HEAD')).output)).toBeGreaterThan(1);
    });
  });

  it('keeps stdout and stderr lines in the order they were written', async () => {
    await withSandbox(template, async (sandbox) => {
      const result = await sandbox.exec('for i in $(seq 1 300); do echo "out $i"; echo "err $i" >&2; done');
      const expected = Array.from({ length: 300 }, (_, i) => `out ${i + 1}\nerr ${i + 1}\n`).join('');
      expect(result.output).toBe(expected);
    });
  });

  it.each([
    ['exit 0', 0],
    ['exit 3', 3],
    ['false', 1],
    ['no-such-command', 127],
    ['kill -9 $$', 137],
    ['exec >&- 2>&-; sleep 1; exit 4', 4],
  ])('reports the exit code of %s', async (command, exitCode) => {
    await withSandbox(template, async (sandbox) => {
      expect(await sandbox.exec(command)).toMatchObject({ exitCode, timedOut: false });
    });
  });

  it('feeds stdin, text and binary', async () => {
    await withSandbox(template, async (sandbox) => {
      expect((await sandbox.exec('cat', { stdin: 'line one\nline two\n' })).output).toBe('line one\nline two\n');
      const bytes = Buffer.alloc(300_000, 7);
      expect((await sandbox.exec('wc -c', { stdin: bytes })).output.trim()).toBe('300000');
      // Without stdin the command reads EOF at once instead of hanging.
      expect(await sandbox.exec('cat', { timeoutMs: 5000 })).toMatchObject({ exitCode: 0, output: '', timedOut: false });
    });
  });

  it('passes env and cwd; a missing cwd is a failed command, not a crash', async () => {
    await withSandbox(template, async (sandbox) => {
      expect((await sandbox.exec('echo "$GREETING"', { env: { GREETING: 'hello "quoted" world' } })).output).toBe('hello "quoted" world\n');
      expect((await sandbox.exec('pwd', { cwd: '/tmp' })).output).toBe('/tmp\n');
      expect((await sandbox.exec('pwd', { cwd: 'tests' })).output).toBe('/repo/tests\n');
      await expect(sandbox.exec('true', { env: { 'BAD NAME': 'x' } })).rejects.toMatchObject({ code: 'usage' });
      await expect(sandbox.exec('true', { timeoutMs: 0 })).rejects.toMatchObject({ code: 'usage' });
      const missing = await sandbox.exec('pwd', { cwd: '/nope' });
      expect(missing.exitCode).toBe(1);
      expect(missing.output).toContain('/nope');
    });
  });

  it('decodes invalid UTF-8 with replacement characters', async () => {
    await withSandbox(template, async (sandbox) => {
      expect((await sandbox.exec("printf 'a\\377\\376b'")).output).toBe('a\uFFFD\uFFFDb');
    });
  });

  it('caps 200 MB of output in bounded memory, keeping head and tail', async () => {
    await withSandbox(template, async (sandbox) => {
      const before = process.memoryUsage().rss;
      const result = await sandbox.exec('echo START; head -c 200000000 /dev/zero | tr "\\0" x; echo; echo END', { maxOutputBytes: 64 * 1024 });
      const growth = process.memoryUsage().rss - before;
      expect(result.exitCode).toBe(0);
      expect(result.droppedBytes).toBe(200_000_000 + 'START\n\nEND\n'.length - 64 * 1024);
      expect(result.output.startsWith('START\nxxx')).toBe(true);
      expect(result.output.endsWith('xxx\nEND\n')).toBe(true);
      expect(result.output).toContain(`[... ${result.droppedBytes} bytes of output dropped ...]`);
      expect(growth).toBeLessThan(64 * 1024 * 1024);
    });
  });
});

describe('DockerSandbox timeouts and limits', () => {
  it.each([
    ['a plain sleeper', 'sleep 1000'],
    ['background jobs', '(sleep 1002 &); sleep 1001 & sleep 1000'],
    ['an escaped process still holding the output pipe', 'setsid sleep 1001 & sleep 1000'],
    ['a daemon that closed its output', 'setsid sleep 1001 </dev/null >/dev/null 2>&1 & sleep 1000'],
  ])('kills %s at the timeout, with everything it started', async (_, command) => {
    await withSandbox(template, async (sandbox) => {
      const result = await sandbox.exec(command, { timeoutMs: 1500 });
      expect(result).toMatchObject({ exitCode: null, timedOut: true });
      expect(result.durationMs).toBeGreaterThanOrEqual(1500);
      expect(result.durationMs).toBeLessThan(6000);
      expect(await processes(sandbox)).not.toMatch(/sleep 100[012]/);
    });
  });

  it('contains a fork bomb with the pids limit and still returns by its timeout', async () => {
    await withSandbox(limited({ pids: 64 }), async (sandbox) => {
      const started = Date.now();
      const result = await sandbox.exec('bomb() { bomb | bomb & }; bomb; sleep 1000', { timeoutMs: 3000 });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.timedOut || result.exitCode !== 0).toBe(true);
      // The sandbox is usable afterwards and nothing of the bomb is left, not even zombies.
      expect((await sandbox.exec('echo alive')).output).toBe('alive\n');
      const left = (await processes(sandbox)).trim().split('\n');
      expect(left.length).toBeLessThan(6);
    });
  });

  it('kills a process that allocates beyond the memory limit', async () => {
    await withSandbox(limited({ memoryMb: 128 }), async (sandbox) => {
      const result = await sandbox.exec(`python3 -c "b = b'x' * (512 * 1024 * 1024); print('survived')"`, { timeoutMs: 60_000 });
      expect(result.exitCode).toBe(137);
      expect(result.output).not.toContain('survived');
    });
  });

  it('has no network: only the loopback device, connections fail', async () => {
    await withSandbox(template, async (sandbox) => {
      expect((await sandbox.exec('ls /sys/class/net')).output).toBe('lo\n');
      const connect = await sandbox.exec(`python3 -c "import socket; socket.create_connection(('1.1.1.1', 80), timeout=5)"`, { timeoutMs: 20_000 });
      expect(connect.exitCode).not.toBe(0);
      expect(connect.output).toMatch(/unreachable|OSError/i);
    });
  });
});

describe('DockerSandbox files and lifecycle', () => {
  it('writes and reads text, binary and nested files with their modes', async () => {
    await withSandbox(template, async (sandbox) => {
      const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      await sandbox.writeFile('notes.txt', 'héllo\n');
      await sandbox.writeFile('deep/er/data.bin', binary);
      await sandbox.writeFile('/ssr/run.sh', '#!/bin/bash\necho ran\n', { mode: 0o755 });
      expect((await sandbox.readFile('/repo/notes.txt')).toString('utf8')).toBe('héllo\n');
      expect(await sandbox.readFile('deep/er/data.bin')).toEqual(binary);
      expect((await sandbox.exec('/ssr/run.sh; stat -c %a /ssr/run.sh notes.txt')).output).toBe('ran\n755\n644\n');
      await sandbox.writeFile('notes.txt', 'replaced');
      expect((await sandbox.readFile('notes.txt')).toString()).toBe('replaced');
    });
  });

  it.each([['missing.txt'], ['/repo/tests']])('readFile %s throws an EngineError', async (path) => {
    await withSandbox(template, async (sandbox) => {
      await expect(sandbox.readFile(path)).rejects.toBeInstanceOf(EngineError);
    });
  });

  it('gives every sandbox its own copy of the repo', async () => {
    await withSandbox(template, async (first) => {
      await first.writeFile('README.md', 'broken\n');
      await withSandbox(template, async (second) => {
        expect((await second.readFile('README.md')).toString()).not.toBe('broken\n');
      });
    });
  });

  it('disposes idempotently and refuses use afterwards', async () => {
    const sandbox = await provider.acquire(template);
    await Promise.all([sandbox.dispose(), sandbox.dispose()]);
    await sandbox.dispose();
    await expect(sandbox.exec('true')).rejects.toBeInstanceOf(EngineError);
  });

  it('removes sandboxes orphaned by dead processes of this host, and only those', async () => {
    const docker = dockerClient();
    const make = (owner: string) => docker.createContainer({ Image: template.ref, Labels: { [OWNER_LABEL]: owner }, HostConfig: { NetworkMode: 'none' } });
    const orphan = await make(`${hostname()}:999999999`);
    const mine = await make(ownerLabelValue());
    const foreign = await make('another-host:999999999');
    try {
      expect(await removeOrphanSandboxes(docker)).toBeGreaterThanOrEqual(1);
      await expect(orphan.inspect()).rejects.toMatchObject({ statusCode: 404 });
      await expect(mine.inspect()).resolves.toBeDefined();
      await expect(foreign.inspect()).resolves.toBeDefined();
    } finally {
      await Promise.all([orphan, mine, foreign].map((container) => container.remove({ force: true }).catch(() => undefined)));
    }
  });

  it('names the missing image and the command that builds it', async () => {
    await expect(provider.acquire({ ...template, ref: 'ssr-repo-nothing:000000000000' })).rejects.toThrow(/ssr build-image --repo/);
  });
});

describe('repo images', () => {
  const docker = dockerClient();

  it('builds a local repo with its setup commands once, labelled, and reuses it', async () => {
    const tiny = await tinyRepo();
    const withSetup = { ...tiny, image: { ...tiny.image, setup: ['echo built > /ssr/BUILT', 'python3 -c "import calc"'] } };
    const tag = await ensureRepoImage(docker, withSetup, silentProgress);
    expect(tag).toBe(repoImageTag(withSetup));
    const labels = (await docker.getImage(tag).inspect()).Config.Labels;
    expect(labels).toMatchObject({ 'ssr.repo': tiny.id, 'ssr.commit': tiny.commit });
    const started = Date.now();
    expect(await ensureRepoImage(docker, withSetup, silentProgress)).toBe(tag);
    expect(Date.now() - started).toBeLessThan(2000);
    await withSandbox({ ...template, repoId: tiny.id, ref: tag }, async (sandbox) => {
      expect((await sandbox.exec('cat /ssr/BUILT; git log --format=%s')).output).toBe('built\ntest add\nadd\n');
    });
  });

  it('fails a build whose setup command fails, with the command and its output, leaving no image', async () => {
    const tiny = await tinyRepo();
    const broken = { ...tiny, image: { ...tiny.image, setup: ['echo checking; ls /no-such-dir'] } };
    const failure = await ensureRepoImage(docker, broken, silentProgress).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EngineError);
    expect(failure).toMatchObject({ code: 'image-build-failed' });
    expect((failure as Error).message).toMatch(/ls \/no-such-dir[\s\S]*exited with 2[\s\S]*checking[\s\S]*No such file/);
    expect(await imageExists(docker, repoImageTag(broken))).toBe(false);
  });
});
