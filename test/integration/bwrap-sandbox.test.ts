import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import { silentProgress } from '../../src/util/progress.js';
import { BwrapProvider } from '../../src/sandbox/bwrap/bwrap-provider.js';
import { prepareBwrapTemplate } from '../../src/sandbox/bwrap/bwrap-template.js';
import { describeCgroupSupport, probeCgroupLimits } from '../../src/sandbox/bwrap/cgroup-probe.js';
import type { Sandbox, SandboxLimits, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { rejection } from '../helpers/rejection.js';

const CALC = 'def add(a, b):\n    return a + b\n';
const TESTS = 'from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\ndef test_neg():\n    assert add(-1, 1) == 0\n';

/** A tiny git repository with two passing pytest tests, on a branch that is not `main`. */
function makeTinyRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-bwrap-repo-'));
  writeFileSync(join(dir, 'calc.py'), CALC);
  writeFileSync(join(dir, 'test_calc.py'), TESTS);
  const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '-b', 'trunk');
  git('add', '-A');
  git('commit', '-qm', 'initial');
  return dir;
}

/** Host processes whose command line carries `marker` (a sandbox process that escaped teardown). */
function hostProcessesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker) && !line.includes('ps -eo'));
}

function uniqueSleep(): string {
  // `sleep` takes fractions: a duration nobody else uses marks our processes in `ps`.
  return `86${randomBytes(3).readUIntBE(0, 3) % 1000}.${randomBytes(3).readUIntBE(0, 3)}`;
}

const cgroups = await probeCgroupLimits();
/** CI (root, cgroup v1) enforces all three; a host without usable cgroups runs the fallback tests. */
const allLimitsEnforced = cgroups.unenforced.length === 0;

/** The sandbox's cgroup directories on the host (one per hierarchy). */
function cgroupDirsOf(sandbox: Sandbox): string[] {
  return cgroups.hierarchies.flatMap((hierarchy) => {
    const parent = join(hierarchy.mount, 'ssr');
    return readdirSync(parent).filter((name) => name.endsWith(`-${sandbox.id}`)).map((name) => join(parent, name));
  });
}

function cgroupDirOf(sandbox: Sandbox, controller: 'pids' | 'memory' | 'cpu'): string {
  const hierarchy = cgroups.hierarchies.find((candidate) => candidate.controllers.includes(controller));
  const dir = cgroupDirsOf(sandbox).find((candidate) => hierarchy !== undefined && candidate.startsWith(`${hierarchy.mount}/`));
  if (dir === undefined) throw new Error(`sandbox ${sandbox.id} has no ${controller} cgroup`);
  return dir;
}

describe('bwrap sandbox (real bubblewrap)', () => {
  const provider = new BwrapProvider();
  const cleanups: (() => Promise<void> | void)[] = [];
  let repo: ResolvedRepo;
  let template: SandboxTemplate;
  let box: Sandbox;

  async function fresh(limits?: SandboxLimits): Promise<Sandbox> {
    const sandbox = await provider.acquire(limits === undefined ? template : { ...template, limits });
    cleanups.push(() => sandbox.dispose());
    return sandbox;
  }

  beforeAll(async () => {
    const source = makeTinyRepo();
    cleanups.push(() => rmSync(source, { recursive: true, force: true }));
    repo = await resolveRepo(source, undefined);
    template = await prepareBwrapTemplate(repo, silentProgress);
    cleanups.push(() => rmSync(template.ref, { recursive: true, force: true }));
    box = await fresh();
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  describe('template', () => {
    it('is idempotent and keeps the repo on main at the pinned commit, without remotes', async () => {
      const again = await prepareBwrapTemplate(repo, silentProgress);
      expect(again).toEqual(template);
      const result = await box.exec('git rev-parse HEAD; git branch --format="%(refname:short)"; git remote | wc -l');
      expect(result.output).toBe(`${repo.commit}\nmain\n0\n`);
    });

    it('runs setup commands without network, and reports a failing one as an image-build error', async () => {
      const built = await prepareBwrapTemplate({ ...repo, image: { ...repo.image, setup: ['echo built > built.txt', 'cat /proc/net/dev | tail -n +3 | wc -l > ifaces.txt'] } }, silentProgress);
      cleanups.push(() => rmSync(built.ref, { recursive: true, force: true }));
      expect(built.ref).not.toBe(template.ref);
      const sandbox = await provider.acquire(built);
      cleanups.push(() => sandbox.dispose());
      expect((await sandbox.readFile('built.txt')).toString()).toBe('built\n');
      expect((await sandbox.readFile('ifaces.txt')).toString()).toBe('1\n');

      const failing = prepareBwrapTemplate({ ...repo, image: { ...repo.image, setup: ['echo broken; exit 4'] } }, silentProgress);
      const error = await rejection(failing);
      expect(error.code).toBe('image-build-failed');
      expect(error.message).toContain('exited with 4');
      expect(error.message).toContain('broken');
    });
  });

  describe('exec', () => {
    it('sees the rootfs and /dev read-only and runs without capabilities', async () => {
      const result = await box.exec('touch /usr/x; touch /dev/x; grep CapEff /proc/self/status');
      expect(result.output.match(/Read-only file system/g)).toHaveLength(2);
      expect(result.output).toContain('CapEff:\t0000000000000000');
    });

    it.each([
      ['/dev/shm (multiprocessing locks)', 'python3 -c "import multiprocessing; multiprocessing.Lock(); print(\'ok\')"', 'ok\n'],
      ['/dev/null', 'echo x > /dev/null && echo ok', 'ok\n'],
    ])('can write to %s', async (_name, command, output) => {
      expect(await box.exec(command)).toMatchObject({ exitCode: 0, output });
    });

    it('applies the memory limit as RLIMIT_AS', async () => {
      expect((await box.exec('ulimit -v')).output).toBe(`${template.limits.memoryMb * 1024}\n`);
      const hog = await box.exec(`python3 -c "x = bytearray(${template.limits.memoryMb + 512} * 1024 * 1024)"`);
      expect(hog.exitCode).not.toBe(0);
      expect(hog.output).toContain('MemoryError');
    });

    it('runs pytest in the repo', async () => {
      const result = await box.exec('python3 -m pytest -q -p no:cacheprovider');
      expect(result.exitCode).toBe(0);
      expect(result.output).toContain('2 passed');
    });
  });

  describe('teardown', () => {
    it('kills background processes when the command returns', async () => {
      const marker = uniqueSleep();
      const result = await box.exec(`sleep ${marker} & echo done`);
      expect(result).toMatchObject({ exitCode: 0, output: 'done\n', timedOut: false });
      expect(result.durationMs).toBeLessThan(3000);
      expect(hostProcessesWith(marker)).toEqual([]);
    });
  });

  describe.runIf(allLimitsEnforced)('cgroup limits', () => {
    it('stops a fork storm at the pids limit: fork fails, the command ends, nothing is left on the host', async () => {
      const sandbox = await fresh({ memoryMb: 1024, cpus: 1, pids: 64 });
      const marker = uniqueSleep();
      // Far more children than the limit; without it uid 0 could fork them all (no RLIMIT_NPROC).
      const storm = [
        'import os, time',
        'forks = 0',
        'try:',
        '    for _ in range(1000):',
        '        if os.fork() == 0:',
        `            time.sleep(${marker}); os._exit(0)`,
        '        forks += 1',
        'except OSError as error:',
        '    print("fork failed:", error.strerror)',
        'print("forks:", forks)',
      ].join('\n');
      const result = await sandbox.exec(`python3 -c '${storm}'`, { timeoutMs: 30_000 });
      expect(result).toMatchObject({ exitCode: 0, timedOut: false });
      expect(result.output).toContain('fork failed: Resource temporarily unavailable');
      const forks = Number(/forks: (\d+)/.exec(result.output)?.[1]);
      expect(forks).toBeGreaterThan(30);
      expect(forks).toBeLessThan(64);
      expect(hostProcessesWith(marker)).toEqual([]);
    });

    it('kills a memory hog at the memory limit, which caps the sandbox as a whole (RLIMIT_AS is per process)', async () => {
      const sandbox = await fresh({ memoryMb: 256, cpus: 1, pids: 64 });
      // Each 100 MB is well within RLIMIT_AS (256 MB); together they are not within the cgroup.
      const hog = `python3 -c 'import time; x = b"x" * (100 << 20); time.sleep(3)'`;
      const result = await sandbox.exec(`for i in 1 2 3; do (${hog}; echo "exit $?") & done; wait`, { timeoutMs: 60_000 });
      expect(result.timedOut).toBe(false);
      const exits = result.output.match(/exit \d+/g) ?? [];
      expect(exits).toHaveLength(3);
      expect(exits).toContain('exit 137');
    });

    it('caps cpu time at the cpus quota', async () => {
      const sandbox = await fresh({ memoryMb: 1024, cpus: 0.25, pids: 64 });
      // Two busy loops for 2 s burn up to 4 s of cpu on 2 cores (well over 1 s on a busy host);
      // the quota allows 0.5 s.
      const result = await sandbox.exec(`for i in 1 2; do timeout 2 sh -c 'while :; do :; done' & done; wait; times`, { timeoutMs: 30_000 });
      const children = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(result.output);
      expect(children, result.output).not.toBeNull();
      const [, userMin, userSec, sysMin, sysSec] = children!.map(Number);
      const cpuSeconds = userMin! * 60 + userSec! + sysMin! * 60 + sysSec!;
      expect(cpuSeconds).toBeGreaterThan(0.05);
      expect(cpuSeconds).toBeLessThan(0.8);
      const stat = readFileSync(join(cgroupDirOf(sandbox, 'cpu'), 'cpu.stat'), 'utf8');
      const throttled = Number(/nr_throttled (\d+)/.exec(stat)?.[1]);
      // The cgroup throttled the loops, unless a host loaded by other work never gave them even
      // the quota's 0.5 s (seen at load 19 on 2 cores): then the cap had nothing to cut.
      if (cpuSeconds > 0.4) expect(throttled).toBeGreaterThan(0);
    });

    it('dispose kills whatever is left in the cgroups and removes them', async () => {
      const sandbox = await provider.acquire({ ...template, limits: { memoryMb: 512, cpus: 1, pids: 64 } });
      const dirs = cgroupDirsOf(sandbox);
      expect(dirs).toHaveLength(cgroups.hierarchies.length);
      // A straggler that the namespace teardown cannot reach: only the cgroup still holds it.
      const marker = uniqueSleep();
      const straggler = spawn('sleep', [marker], { stdio: 'ignore' });
      writeFileSync(join(cgroupDirOf(sandbox, 'pids'), 'cgroup.procs'), String(straggler.pid));
      const ended = new Promise((resolve) => straggler.on('exit', (_code, signal) => resolve(signal)));
      await sandbox.dispose();
      expect(await ended).toBe('SIGKILL');
      for (const dir of dirs) expect(existsSync(dir), dir).toBe(false);
    });

    it("sweeps the cgroups of owners that died without disposing them", async () => {
      const dead = spawn('true');
      await new Promise((resolve) => dead.on('exit', resolve));
      const orphans = cgroups.hierarchies.map((hierarchy) => join(hierarchy.mount, 'ssr', `${dead.pid}-bwrap-orphan`));
      for (const dir of orphans) mkdirSync(dir);
      const sandbox = await new BwrapProvider().acquire(template);
      await sandbox.dispose();
      for (const dir of orphans) expect(existsSync(dir), dir).toBe(false);
    });
  });

  // On a host that gives cgroups, the fallback still runs for real: in a private mount namespace
  // whose cgroup mounts are read-only (on a host that does not, the block below runs instead).
  describe.runIf(allLimitsEnforced)('when the host\'s cgroups turn read-only', () => {
    it('still runs commands, without a cgroup, and says why the limits are not enforced', () => {
      const remount = 'for m in $(awk \'$3=="cgroup" || $3=="cgroup2" {print $2}\' /proc/self/mounts); do mount -o remount,bind,ro "$m" || exit 97; done';
      const child = join(import.meta.dirname, 'children', 'bwrap-without-cgroups.ts');
      const tsx = join(import.meta.dirname, '../../node_modules/.bin/tsx');
      const out = execFileSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', `${remount}; exec "$0" "$@"`, tsx, child, JSON.stringify(template)], { encoding: 'utf8', timeout: 60_000 });
      const report = JSON.parse(out.trim().split('\n').at(-1)!) as { output: string; exitCode: number; summary: string; unenforced: number };
      expect(report.exitCode).toBe(0);
      expect(report.output).toBe('up\n0\n');
      expect(report.unenforced).toBeGreaterThan(0);
      expect(report.summary).toMatch(/limits not enforced: .*(read-only|EROFS)/i);
    });
  });

  describe.runIf(!allLimitsEnforced)('without usable cgroups', () => {
    it('says why, and the host indeed cannot give this process a cgroup', async () => {
      const support = await provider.limitEnforcement();
      expect(describeCgroupSupport(support)).toMatch(/limits not enforced: ./);
      // Guard against a broken probe silently skipping the cgroup tests on a capable host.
      const rootWithWritableV1 = (controller: string): boolean => {
        try {
          accessSync(`/sys/fs/cgroup/${controller}/cgroup.procs`, constants.W_OK);
          return process.geteuid?.() === 0;
        } catch {
          return false;
        }
      };
      for (const { controller } of support.unenforced) expect(rootWithWritableV1(controller), controller).toBe(false);
    });

    it('still runs commands, and ends a fork storm at the timeout', async () => {
      const marker = uniqueSleep();
      // Bounded on purpose (~240 processes): nothing limits the process count of uid 0 here.
      const storm = `storm() { [ "$1" -gt 0 ] || return; for i in 1 2 3; do (sleep ${marker} & storm $(($1 - 1)); wait) & done; wait; }`;
      const result = await box.exec(`${storm}; storm 4 & sleep 1; echo up; sleep ${marker}`, { timeoutMs: 4000 });
      expect(result).toMatchObject({ timedOut: true, output: 'up\n' });
      expect(hostProcessesWith(marker)).toEqual([]);
    });
  });

  describe('files', () => {
    it('sets the mode when asked and keeps an existing mode otherwise', async () => {
      await box.writeFile('/ssr/run.sh', '#!/bin/sh\necho ran\n', { mode: 0o755 });
      expect((await box.exec('/ssr/run.sh')).output).toBe('ran\n');
      await box.writeFile('/ssr/run.sh', '#!/bin/sh\necho again\n');
      expect((await box.exec('/ssr/run.sh; stat -c %a /ssr/run.sh')).output).toBe('again\n755\n');
    });

    it.each([
      ['a rootfs path', '/etc/passwd', 'usage'],
      ['a /proc path', '/proc/self/environ', 'usage'],
      ['a path climbing out of /repo', '../etc/passwd', 'usage'],
    ])('refuses to read %s', async (_name, path, code) => {
      expect((await rejection(box.readFile(path))).code).toBe(code);
    });

    it('follows links with the sandbox semantics: inside the sandbox only, never a host file', async () => {
      // A host file in the host's /tmp: inside the sandbox, /tmp is the sandbox's own.
      const canary = join('/tmp', `ssr-bwrap-canary-${randomBytes(4).toString('hex')}`);
      writeFileSync(canary, 'HOST');
      cleanups.push(() => rmSync(canary, { force: true }));
      await box.writeFile('/ssr/data.bin', Buffer.alloc(1024, 1));
      await box.exec(
        [
          `ln -s ${canary} host-link`,
          'ln -s /etc/passwd passwd-link',
          'ln -s ../../../../../../etc/passwd climb-link',
          `ln -s ${join(canary, '..')} host-dir`,
          'ln -s /ssr/data.bin abs-inside',
          'ln -s calc.py rel-inside',
          'ln -s loop1 loop2; ln -s loop2 loop1',
        ].join('; '),
      );
      for (const link of ['passwd-link', 'climb-link']) {
        expect((await rejection(box.readFile(link))).code, link).toBe('usage');
        expect((await rejection(box.writeFile(link, 'pwned'))).code, link).toBe('usage');
      }
      expect((await rejection(box.readFile('host-link'))).code).toBe('sandbox-failed');
      await box.writeFile('host-link', 'inside');
      await box.writeFile('host-dir/evil', 'inside');
      expect((await box.exec(`cat ${canary} ${join(canary, '..', 'evil')}`)).output).toBe('insideinside');
      expect((await rejection(box.readFile('loop1'))).message).toContain('too many levels');
      expect(readFileSync(canary, 'utf8')).toBe('HOST');
      expect(existsSync('/tmp/evil')).toBe(false);
      expect((await box.readFile('rel-inside')).toString()).toBe(CALC);
      expect((await box.readFile('abs-inside')).length).toBe(1024);
    });
  });

  describe('dispose', () => {
    it('kills a running command', async () => {
      const sandbox = await provider.acquire(template);
      const marker = uniqueSleep();
      const running = sandbox.exec(`sleep ${marker}`, { timeoutMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The probe sees a live sandbox process, so its empty answers elsewhere mean something.
      expect(hostProcessesWith(marker).filter((line) => /^\s*\d+ sleep /.test(line))).toHaveLength(1);
      await sandbox.dispose();
      expect(await running).toMatchObject({ exitCode: null, timedOut: false });
      expect(hostProcessesWith(marker)).toEqual([]);
    });
  });
});
