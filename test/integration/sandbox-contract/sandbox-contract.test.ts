import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleRepo } from '../../helpers/sandboxes.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../../../src/sandbox/sandbox.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { CONTRACT_PROVIDERS } from './providers.js';
import { rejection } from '../../helpers/rejection.js';

/**
 * The Sandbox contract (src/sandbox/sandbox.ts), checked the same way on every backend. Checks are
 * independent and run concurrently within a backend: each that changes a sandbox gets its own.
 * Backend-specific behaviour (limits, templates, path rules) stays in docker-sandbox.test.ts and
 * bwrap-sandbox.test.ts.
 */
describe.each(CONTRACT_PROVIDERS.map((row) => [row.name, row] as const))('Sandbox contract: %s', (_name, row) => {
  if (row.skip !== undefined) {
    // The one allowed skip (a backend this machine cannot have), visible with its reason.
    it.skip(`skipped: ${row.skip}`, () => undefined);
    return;
  }
  let template: SandboxTemplate;
  let provider: SandboxProvider;
  let commit: string;
  /** A sandbox shared by the checks that only run commands and change nothing. */
  let box: Sandbox;

  async function withSandbox<T>(fn: (sandbox: Sandbox) => Promise<T>): Promise<T> {
    const sandbox = await provider.acquire(template);
    try {
      return await fn(sandbox);
    } finally {
      await sandbox.dispose();
    }
  }

  beforeAll(async () => {
    template = await row.template();
    provider = row.provider();
    commit = (await exampleRepo()).commit;
    box = await provider.acquire(template);
  });

  afterAll(async () => {
    await box?.dispose();
    await provider?.dispose?.();
  });

  describe.concurrent('exec', () => {
    it('starts in /repo, on main at the pinned commit with its history, clean and without remotes', async () => {
      expect(box.backend).toBe(template.backend);
      const result = await box.exec('pwd; git rev-parse --abbrev-ref HEAD; git status --porcelain; git remote | wc -l; git rev-parse HEAD');
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, droppedBytes: 0, output: `/repo\nmain\n0\n${commit}\n` });
      // Full history, for the Injector's history strategy.
      expect(Number((await box.exec('git rev-list --count HEAD')).output)).toBeGreaterThan(1);
    });

    it.each([
      ['exit 0', 0],
      ['false', 1],
      ['exit 7', 7],
      ['no-such-command', 127],
      ['kill -9 $$', 137],
      ['exec >&- 2>&-; sleep 1; exit 4', 4],
    ])('reports the exit code of %s', async (command, exitCode) => {
      expect(await box.exec(command)).toMatchObject({ exitCode, timedOut: false });
    });

    it('skips only the exit code when asked (Docker needs a request of its own for it); a timeout is still one', async () => {
      const result = await box.exec('echo out; echo err >&2; exit 3', { skipExitCode: true });
      expect(result).toMatchObject({ output: 'out\nerr\n', timedOut: false, exitCode: box.backend === 'docker' ? null : 3 });
      expect(await box.exec('echo started; sleep 30', { skipExitCode: true, timeoutMs: 1000 })).toMatchObject({ output: 'started\n', timedOut: true, exitCode: null });
    });

    it('interleaves stdout and stderr in the order they were written', async () => {
      const result = await box.exec('for i in $(seq 1 300); do echo "out $i"; echo "err $i" >&2; done');
      expect(result.output).toBe(Array.from({ length: 300 }, (_, i) => `out ${i + 1}\nerr ${i + 1}\n`).join(''));
    });

    it('feeds stdin, text and binary; without stdin a command reads EOF', async () => {
      expect((await box.exec('cat', { stdin: 'line one\nhéllo\n' })).output).toBe('line one\nhéllo\n');
      const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
      expect((await box.exec('wc -c', { stdin: bytes })).output.trim()).toBe(String(bytes.length));
      expect(await box.exec('cat', { timeoutMs: 10_000 })).toMatchObject({ exitCode: 0, output: '', timedOut: false });
    });

    it.each([
      [undefined, '/repo'],
      ['/tmp', '/tmp'],
      ['/ssr', '/ssr'],
      ['.git', '/repo/.git'],
    ])('runs in cwd %s → %s', async (cwd, expected) => {
      expect((await box.exec('pwd', { cwd })).output).toBe(`${expected}\n`);
    });

    it('reports a missing cwd as a failed command naming it', async () => {
      const missing = await box.exec('pwd', { cwd: '/nope' });
      expect(missing.exitCode).toBe(1);
      expect(missing.output).toContain('/nope');
    });

    it('passes env as given over a clean environment with a writable home, nothing of the host', async () => {
      process.env.SSR_CONTRACT_LEAK_CHECK = 'host-secret';
      const result = await box.exec('echo "$GREETING"; test -d "$HOME" && test -w "$HOME" && echo home-ok; env', {
        env: { GREETING: 'hello "quoted" $world', EMPTY: '' },
      });
      delete process.env.SSR_CONTRACT_LEAK_CHECK;
      expect(result.output.split('\n').slice(0, 2)).toEqual(['hello "quoted" $world', 'home-ok']);
      expect(result.output).toMatch(/^EMPTY=$/m);
      expect(result.output).not.toContain('host-secret');
    });

    it.each([
      ['an invalid env name', { env: { 'BAD NAME': 'x' } }],
      ['an env name with =', { env: { 'A=B': 'x' } }],
      ['a zero timeout', { timeoutMs: 0 }],
      ['a NaN timeout', { timeoutMs: Number.NaN }],
    ])('refuses %s as a usage error', async (_name, options) => {
      expect((await rejection(box.exec('true', options))).code).toBe('usage');
    });

    it('decodes invalid UTF-8 with replacement characters', async () => {
      expect((await box.exec("printf 'a\\377\\376b'")).output).toBe('a\uFFFD\uFFFDb');
    });

    it('caps 200 MB of output in bounded memory, keeping head and tail', async () => {
      const before = process.memoryUsage().rss;
      const result = await box.exec('echo START; head -c 200000000 /dev/zero | tr "\\0" x; echo; echo END', { maxOutputBytes: 64 * 1024 });
      const growth = process.memoryUsage().rss - before;
      expect(result.exitCode).toBe(0);
      expect(result.droppedBytes).toBe(200_000_000 + 'START\n\nEND\n'.length - 64 * 1024);
      expect(result.output.startsWith('START\nxxx')).toBe(true);
      expect(result.output.endsWith('xxx\nEND\n')).toBe(true);
      expect(result.output).toContain(`[... ${result.droppedBytes} bytes of output dropped ...]`);
      expect(growth).toBeLessThan(96 * 1024 * 1024);
    });

    it('has no network: only the loopback device (where the backend can have none other), connections fail', async () => {
      if (row.loopbackOnly) expect((await box.exec('tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "')).output).toBe('lo\n');
      const connect = await box.exec(`python3 -c "import socket; socket.create_connection(('1.1.1.1', 80), timeout=5)"`, { timeoutMs: 30_000 });
      expect(connect.exitCode).not.toBe(0);
      // A NetworkPolicy drops packets: the connection times out instead of being refused.
      expect(connect.output).toMatch(row.loopbackOnly ? /unreachable|OSError/i : /unreachable|timed out|OSError/i);
    });

    it('resolves localhost and serves TCP on it, with no outside network', async () => {
      // Test suites start servers on `localhost` (Vite, HTTP fixtures): a sandbox must resolve it.
      const hosts = await box.exec('getent hosts localhost');
      expect(hosts.exitCode, hosts.output).toBe(0);
      expect(hosts.output).toMatch(/^(127\.0\.0\.1|::1)\s+localhost\b/m);
      // A server listening on `localhost` and a client connecting to it by name, one round trip.
      const echo = [
        'import socket, threading',
        "server = socket.create_server(('localhost', 0))",
        'port = server.getsockname()[1]',
        'def serve():',
        '    peer, _ = server.accept()',
        '    peer.sendall(peer.recv(64).upper())',
        '    peer.close()',
        'threading.Thread(target=serve, daemon=True).start()',
        "client = socket.create_connection(('localhost', port), timeout=10)",
        "client.sendall(b'ping')",
        'print(client.recv(64).decode())',
      ].join('\n');
      const result = await box.exec(`python3 -c '${echo.replace(/'/g, `'"'"'`)}'`, { timeoutMs: 30_000 });
      expect(result, result.output).toMatchObject({ exitCode: 0, output: 'PING\n' });
    });
  });

  describe.concurrent('state and teardown', () => {
    it('keeps files in /tmp, the home directory, the repo and /ssr from one exec to the next', async () => {
      await withSandbox(async (sandbox) => {
        const [home, modes] = (await sandbox.exec('echo "$HOME"; stat -c %a /tmp')).output.trim().split('\n');
        expect(modes).toBe('1777'); // /tmp sticky and world-writable, as tools expect
        const paths = ['/tmp/kept/a.txt', `${home}/.kept`, '/repo/kept.txt', '/ssr/kept.txt'];
        const write = await sandbox.exec(paths.map((path, i) => `mkdir -p "$(dirname ${path})" && echo ${i} > ${path}`).join(' && '));
        expect(write.exitCode, write.output).toBe(0);
        expect((await sandbox.exec(`cat ${paths.join(' ')}`)).output).toBe('0\n1\n2\n3\n');
        // …and the host reads them back, too.
        for (const [i, path] of paths.entries()) expect((await sandbox.readFile(path)).toString(), path).toBe(`${i}\n`);
      });
    });

    it('kills the whole process group at the timeout, background grandchildren and escaped daemons too', async () => {
      await withSandbox(async (sandbox) => {
        // Each descendant beats into its own file every 50 ms while it lives.
        const beat = (name: string): string => `bash -c 'while :; do echo >> /tmp/beat-${name}; sleep 0.05; done'`;
        const names = ['child', 'grandchild', 'setsid-holding-output', 'setsid-daemon', 'nohup'];
        const command = [
          `${beat('child')} &`,
          `(${beat('grandchild')} &)`,
          `setsid ${beat('setsid-holding-output')} &`,
          `setsid ${beat('setsid-daemon')} </dev/null >/dev/null 2>&1 &`,
          `nohup ${beat('nohup')} >/dev/null 2>&1 &`,
          "trap '' TERM HUP INT",
          'echo started',
          'sleep 1000',
        ].join('\n');
        const result = await sandbox.exec(command, { timeoutMs: 1500 });
        expect(result, JSON.stringify(result)).toMatchObject({ exitCode: null, timedOut: true });
        expect(result.output.startsWith('started\n'), result.output).toBe(true); // a killed beat loop may report its child
        expect(result.durationMs).toBeGreaterThanOrEqual(1500);
        expect(result.durationMs).toBeLessThan(8000);
        // Once exec has returned, no heart beats any more.
        const beats = async (): Promise<string> => (await sandbox.exec(`wc -l ${names.map((name) => `/tmp/beat-${name}`).join(' ')}`)).output;
        const first = await beats();
        expect(first.match(/^\s*[1-9]\d* \/tmp\/beat-/gm), first).toHaveLength(names.length);
        await sleep(1000);
        expect(await beats(), first).toBe(first);
      });
    });

    it('lets nothing escape the sandbox\'s own tree: not to the host, not to the template, not to another sandbox', async () => {
      const name = `ssr-contract-${randomBytes(5).toString('hex')}`;
      // A host file in the host's temp dir: invisible, and unwritable, from inside.
      const canary = join(tmpdir(), name);
      writeFileSync(canary, 'HOST');
      const dirs = ['/', '/etc', '/usr', '/usr/local/bin', '/var/tmp', '/opt', '/home', '/srv', '/dev', '/proc', '/sys'];
      try {
        await withSandbox(async (sandbox) => {
          const attempt = [`test -e ${canary} && echo sees-host-file`, `echo pwned > ${canary}`, ...dirs.map((dir) => `echo pwned > ${join(dir, name)}`)];
          const result = await sandbox.exec(attempt.map((line) => `${line} 2>/dev/null`).join('; ') + '; git -C /repo commit -qam x --allow-empty 2>/dev/null; true');
          expect(result.output).not.toContain('sees-host-file');
        });
        expect(dirs.map((dir) => join(dir, name)).filter((path) => existsSync(path))).toEqual([]);
        expect(readFileSync(canary, 'utf8')).toBe('HOST');
        await withSandbox(async (other) => {
          const seen = await other.exec(`${dirs.map((dir) => `test -e ${join(dir, name)} && echo ${dir}`).join('; ')}; git rev-parse HEAD; true`);
          expect(seen.output).toBe(`${commit}\n`);
        });
      } finally {
        rmSync(canary, { force: true });
      }
    });

    it('keeps concurrent sandboxes apart: files, processes and signals', async () => {
      const [a, b] = await Promise.all([provider.acquire(template), provider.acquire(template)]);
      try {
        await Promise.all([a, b].map((sandbox) => sandbox.exec(`echo ${sandbox.id} > /tmp/who; echo ${sandbox.id} > ~/who; echo ${sandbox.id} >> README.md`)));
        for (const sandbox of [a, b]) {
          expect((await sandbox.exec('cat /tmp/who ~/who; tail -n 1 README.md; git status --porcelain')).output).toBe(`${sandbox.id}\n`.repeat(3) + ' M README.md\n');
        }
        // A process of b is neither visible nor killable from a. The marker travels in the env,
        // so a's own command line does not match it.
        const marker = `5.${randomBytes(4).readUInt32BE()}`;
        const running = b.exec(`touch /tmp/sleeping; sleep ${marker}; echo survived`, { timeoutMs: 30_000 });
        while ((await b.exec('test -e /tmp/sleeping')).exitCode !== 0) await sleep(100);
        const fromA = await a.exec('ps -eo args | grep -F "sleep $M" | grep -v grep; pkill -9 -f "sleep $M"; echo "pkill $?"', { env: { M: marker } });
        expect(fromA.output).toBe('pkill 1\n');
        expect(await running).toMatchObject({ exitCode: 0, output: 'survived\n' });
      } finally {
        await Promise.all([a.dispose(), b.dispose()]);
      }
    });

    it('disposes everything it made, idempotently, and refuses use afterwards', async () => {
      const sandbox = await provider.acquire(template);
      await sandbox.exec('echo x > /tmp/x');
      expect(await row.residue(sandbox)).not.toEqual([]);
      await Promise.all([sandbox.dispose(), sandbox.dispose()]);
      await sandbox.dispose();
      expect(await row.residue(sandbox)).toEqual([]);
      expect((await rejection(sandbox.exec('true'))).code).toBe('sandbox-failed');
      expect((await rejection(sandbox.readFile('README.md'))).code).toBe('sandbox-failed');
      expect((await rejection(sandbox.writeFile('x.txt', 'x'))).code).toBe('sandbox-failed');
    });

    it('ends a running command when disposed, leaving nothing', async () => {
      const sandbox = await provider.acquire(template);
      const running = sandbox.exec('echo up; sleep 1000', { timeoutMs: 60_000 }).then(
        (result) => ({ status: 'resolved' as const, result }),
        (error: unknown) => ({ status: 'rejected' as const, error }),
      );
      await sleep(1000);
      const started = Date.now();
      await sandbox.dispose();
      const outcome = await running;
      expect(Date.now() - started).toBeLessThan(15_000);
      // Ended from outside: never a success, and never a timeout.
      if (outcome.status === 'resolved') expect(outcome.result).toMatchObject({ exitCode: null, timedOut: false });
      else expect(outcome.error).toBeInstanceOf(EngineError);
      expect(await row.residue(sandbox)).toEqual([]);
    });
  });

  describe.concurrent('copy in and out', () => {
    it('round-trips text, binary and large files into the repo, /ssr, /tmp and the home directory', async () => {
      await withSandbox(async (sandbox) => {
        const home = (await sandbox.exec('echo "$HOME"')).output.trim();
        const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
        const large = randomBytes(3 * 1024 * 1024);
        await sandbox.writeFile('notes.txt', 'héllo\n');
        await sandbox.writeFile('deep/er/data.bin', binary);
        await sandbox.writeFile('/ssr/large.bin', large);
        await sandbox.writeFile('/tmp/in/tmp.txt', 'tmp\n');
        await sandbox.writeFile(`${home}/home.txt`, 'home\n');
        expect((await sandbox.readFile('/repo/notes.txt')).toString('utf8')).toBe('héllo\n');
        expect(await sandbox.readFile('deep/er/data.bin')).toEqual(binary);
        expect((await sandbox.readFile('/ssr/large.bin')).equals(large)).toBe(true);
        const seen = await sandbox.exec(`cat notes.txt /tmp/in/tmp.txt ~/home.txt; sha256sum < /ssr/large.bin | cut -c1-16`);
        const digest = createHash('sha256').update(large).digest('hex').slice(0, 16);
        expect(seen.output).toBe(`héllo\ntmp\nhome\n${digest}\n`);
        await sandbox.writeFile('notes.txt', 'replaced');
        expect((await sandbox.readFile('notes.txt')).toString()).toBe('replaced');
      });
    });

    it('creates files 0644 unless told a mode, and a given mode sticks', async () => {
      await withSandbox(async (sandbox) => {
        await sandbox.writeFile('/ssr/run.sh', '#!/bin/bash\necho ran\n', { mode: 0o755 });
        await sandbox.writeFile('plain.txt', 'x');
        expect((await sandbox.exec('/ssr/run.sh; stat -c %a /ssr/run.sh plain.txt')).output).toBe('ran\n755\n644\n');
      });
    });

    it('reads what a command wrote, anywhere it may write', async () => {
      await withSandbox(async (sandbox) => {
        await sandbox.exec("printf 'from-exec' > /ssr/made.txt; printf 'tmp' > /tmp/made.txt; mkdir -p out && printf '\\0\\1' > out/b.bin");
        expect((await sandbox.readFile('/ssr/made.txt')).toString()).toBe('from-exec');
        expect((await sandbox.readFile('/tmp/made.txt')).toString()).toBe('tmp');
        expect(await sandbox.readFile('out/b.bin')).toEqual(Buffer.from([0, 1]));
      });
    });

    it.each([
      ['a missing file', 'missing.txt'],
      ['a missing file in /tmp', '/tmp/missing.txt'],
      ['a directory', '/repo'],
    ])('refuses to read %s with a sandbox-failed EngineError', async (_name, path) => {
      expect((await rejection(box.readFile(path))).code).toBe('sandbox-failed');
    });
  });

  // Last, after every other check of this backend has disposed what it acquired.
  it('leaves nothing of this process once its sandboxes and the provider are disposed (a warm pool\'s too)', async () => {
    await box.dispose();
    await provider.dispose?.();
    await provider.dispose?.();
    expect(await row.leftovers()).toEqual([]);
    if (provider.dispose) expect((await rejection(provider.acquire(template))).code).toBe('sandbox-failed');
  });
});
