import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXEC_WRAPPER } from '../../../../src/sandbox/exec-scripts.js';
import { decodeExecStatus } from '../../../../src/sandbox/k8s/exec-status.js';
import { loadK8sCluster, type K8sCluster } from '../../../../src/sandbox/k8s/k8s-cluster.js';
import { K8sProvider } from '../../../../src/sandbox/k8s/k8s-provider.js';
import type { Sandbox, SandboxTemplate } from '../../../../src/sandbox/sandbox.js';
import { exitStatus } from '../../../helpers/k8s/fake-kubelet.js';
import { FakeKubeApi } from '../../../helpers/k8s/fake-kube-api.js';
import { rejection } from '../../../helpers/rejection.js';

const template: SandboxTemplate = { backend: 'k8s', repoId: 'pyledger', ref: 'ssr-repo-pyledger:0123456789ab', limits: { memoryMb: 512, cpus: 1, pids: 256 } };

/**
 * K8sSandbox over the exec API's websocket (channel.k8s.io v4) against the fake API server, whose
 * "kubelet" runs each exec's argv as a real process on this host: exit codes come from the status
 * channel, output from channels 1 and 2, copies are real tar. Paths are in a host temp dir (the
 * host has no /repo); the contract suite runs the same on a real cluster.
 */
describe('K8sSandbox over the exec websocket', () => {
  let api: FakeKubeApi;
  let dir: string;
  let cluster: K8sCluster;
  let provider: K8sProvider;
  let box: Sandbox;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ssr-k8s-exec-'));
    api = new FakeKubeApi();
    await api.start();
    cluster = loadK8sCluster({ kubeconfig: api.writeKubeconfig(dir) });
    provider = new K8sProvider(cluster);
    box = await provider.acquire(template);
  });

  afterAll(async () => {
    await box.dispose();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the command as the exec argv (env, the shared wrapper, cwd, timeout) and speaks v4', async () => {
    const before = api.execs.length;
    const result = await box.exec('echo "$GREETING"; exit 7', { cwd: dir, env: { GREETING: 'hello "quoted" $world', EMPTY: '' }, timeoutMs: 5000 });
    expect(result).toMatchObject({ exitCode: 7, output: 'hello "quoted" $world\n', timedOut: false, droppedBytes: 0 });
    const call = api.execs[before]!;
    expect(call.protocol).toBe('v4.channel.k8s.io');
    expect(call.command).toEqual(['env', 'GREETING=hello "quoted" $world', 'EMPTY=', expect.stringMatching(/^SSR_EXEC=[0-9a-f-]{36}$/), 'bash', '-c', EXEC_WRAPPER, 'ssr-exec', dir, '5.000', 'exec </dev/null; echo "$GREETING"; exit 7']);
    const upgrade = api.requests.filter((request) => request.path === `/api/v1/namespaces/ssr/pods/${box.id}/exec`).at(-1)!;
    expect(Object.fromEntries([...upgrade.query].filter(([key]) => key !== 'command'))).toEqual({ stdout: 'true', stderr: 'true', stdin: 'false', tty: 'false', container: 'sandbox' });
  });

  it('speaks v5 the same way (exit code, output, a copy in and out)', async () => {
    api.protocol = 'v5.channel.k8s.io';
    try {
      const before = api.execs.length;
      expect(await box.exec('echo five; exit 5', { cwd: dir })).toMatchObject({ exitCode: 5, output: 'five\n' });
      await box.writeFile(join(dir, 'v5.txt'), 'v5\n');
      expect((await box.readFile(join(dir, 'v5.txt'))).toString()).toBe('v5\n');
      expect(api.execs.slice(before).map((call) => call.protocol)).toEqual(Array(3).fill('v5.channel.k8s.io'));
    } finally {
      api.protocol = 'v4.channel.k8s.io';
    }
  });

  it.each([
    ['exit 0', 0],
    ['false', 1],
    ['exit 7', 7],
    ['no-such-command-ssr', 127],
    ['kill -9 $$', 137],
    ['exec >&- 2>&-; sleep 0.3; exit 4', 4],
  ])('reports the exit code of %s from the status channel', async (command, exitCode) => {
    expect(await box.exec(command, { cwd: dir })).toMatchObject({ exitCode, timedOut: false });
  });

  it('reports a missing cwd as a failed command naming it', async () => {
    const result = await box.exec('pwd', { cwd: '/nope-ssr' });
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain('/nope-ssr');
  });

  it('interleaves stdout and stderr in the order they were written; without stdin a command reads EOF', async () => {
    const result = await box.exec('for i in $(seq 1 200); do echo "out $i"; echo "err $i" >&2; done; cat', { cwd: dir, timeoutMs: 10_000 });
    expect(result.output).toBe(Array.from({ length: 200 }, (_, i) => `out ${i + 1}\nerr ${i + 1}\n`).join(''));
  });

  it('caps output, keeping head and tail', async () => {
    const result = await box.exec('echo START; head -c 5000000 /dev/zero | tr "\\0" x; echo; echo END', { cwd: dir, maxOutputBytes: 64 * 1024 });
    expect(result.exitCode).toBe(0);
    expect(result.droppedBytes).toBe(5_000_000 + 'START\n\nEND\n'.length - 64 * 1024);
    expect(result.output.startsWith('START\nxxx')).toBe(true);
    expect(result.output.endsWith('xxx\nEND\n')).toBe(true);
  });

  it('kills the whole process group at the timeout, and a sweep exec gets what escaped it', async () => {
    const beat = (name: string): string => `bash -c 'while :; do echo >> ${dir}/beat-${name}; sleep 0.05; done'`;
    const command = [`${beat('child')} &`, `setsid ${beat('daemon')} </dev/null >/dev/null 2>&1 &`, `setsid ${beat('holder')} &`, 'echo started', 'sleep 1000'].join('\n');
    const before = api.execs.length;
    const result = await box.exec(command, { cwd: dir, timeoutMs: 1500 });
    expect(result).toMatchObject({ exitCode: null, timedOut: true });
    expect(result.output.startsWith('started\n')).toBe(true);
    expect(result.durationMs).toBeGreaterThanOrEqual(1500);
    expect(result.durationMs).toBeLessThan(10_000);
    const marker = api.execs[before]!.command[1]!.replace('SSR_EXEC=', '');
    expect(api.execs.slice(before + 1).map((call) => call.command.slice(0, 2).concat(call.command.slice(-2)))).toContainEqual(['bash', '-c', 'ssr-sweep', marker]);
    const beats = (): string => ['child', 'daemon', 'holder'].map((name) => readFileSync(join(dir, `beat-${name}`), 'utf8').length).join(',');
    const first = beats();
    await sleep(600);
    expect(beats()).toBe(first);
  });

  it('copies files in and out as tar over exec: modes, binary, several MB, parents created', async () => {
    const large = randomBytes(3 * 1024 * 1024);
    const target = join(dir, 'deep', 'er', 'large.bin');
    const before = api.execs.length;
    await box.writeFile(target, large, { mode: 0o755 });
    const copy = api.execs[before]!;
    expect(copy.command.slice(0, 4)).toEqual(['bash', '-c', 'mkdir -p -- "$1" && head -c "$2" | tar -xf - -C "$1"', 'ssr-copy-in']);
    expect(Buffer.concat(copy.stdin).length).toBe(Number(copy.command[5]));
    expect(Math.max(...copy.stdin.map((chunk) => chunk.length))).toBe(32 * 1024);
    expect(readFileSync(target).equals(large)).toBe(true);
    expect(statSync(target).mode & 0o777).toBe(0o755);
    expect((await box.readFile(target)).equals(large)).toBe(true);
    await box.writeFile(join(dir, 'plain.txt'), 'héllo\n');
    expect(statSync(join(dir, 'plain.txt')).mode & 0o777).toBe(0o644);
    expect((await box.readFile(join(dir, 'plain.txt'))).toString()).toBe('héllo\n');
  });

  it.each([
    ['a missing file', 'missing.txt', 'readFile: no such file in sandbox'],
    ['a directory', '', 'is a directory, not a regular file'],
  ])('refuses to read %s with a sandbox-failed EngineError', async (_name, path, message) => {
    const error = await rejection(box.readFile(join(dir, path)));
    expect(error.code).toBe('sandbox-failed');
    expect(error.message).toContain(message);
  });

  it('ends a running command when disposed, leaving nothing, and refuses use afterwards', async () => {
    const sandbox = await provider.acquire(template);
    const running = sandbox.exec('echo up; sleep 1000', { cwd: dir, timeoutMs: 60_000 });
    await sleep(500);
    await sandbox.dispose();
    expect(await running).toMatchObject({ exitCode: null, timedOut: false });
    expect(api.pods.has(sandbox.id)).toBe(false);
    expect((await rejection(sandbox.exec('true'))).code).toBe('sandbox-failed');
    expect((await rejection(sandbox.readFile('x'))).code).toBe('sandbox-failed');
  });

  it('says which pod an exec could not reach', async () => {
    const sandbox = await provider.acquire(template);
    await cluster.core.deleteNamespacedPod({ name: sandbox.id, namespace: 'ssr' });
    const error = await rejection(sandbox.exec('true', { cwd: dir }));
    expect(error).toMatchObject({ code: 'sandbox-failed', retryable: true });
    expect(error.message).toBe(`exec in pod ${sandbox.id} on cluster ${api.url} (context fake): Unexpected server response: 404`);
  });

  it('turns a pod lost under a running command into a retryable sandbox-failed, never an exit code', async () => {
    const sandbox = await provider.acquire(template);
    const running = rejection(sandbox.exec('sleep 1000', { cwd: dir, timeoutMs: 60_000 }));
    await sleep(500);
    await cluster.core.deleteNamespacedPod({ name: sandbox.id, namespace: 'ssr' });
    const error = await running;
    expect(error).toMatchObject({ code: 'sandbox-failed', retryable: true });
    expect(error.message).toContain('closed without an exit status');
  });
});

describe('decodeExecStatus (channel 3)', () => {
  it.each([
    [exitStatus(0, ['true']), { status: 'exited', exitCode: 0 }],
    [exitStatus(7, ['sh', '-c', 'exit 7']), { status: 'exited', exitCode: 7 }],
    [exitStatus(137, ['sleep', '9']), { status: 'exited', exitCode: 137 }],
    [{ status: 'Failure', reason: 'InternalError', message: 'container not found ("sandbox")' }, { status: 'failed', message: 'container not found ("sandbox")' }],
    [{ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: 'x' }] }, message: 'odd' }, { status: 'failed', message: 'odd' }],
  ])('%j → %j', (status, expected) => {
    expect(decodeExecStatus(status)).toEqual(expected);
  });
});
