import { describe, expect, it } from 'vitest';
import { BASE_ENV, bwrapArgs, isValidEnvName, type BwrapInvocation } from '../../../src/sandbox/bwrap/bwrap-args.js';

function invocation(overrides: Partial<BwrapInvocation> = {}): BwrapInvocation {
  return {
    rootfs: '/cache/rootfs',
    repoDir: '/cache/sbx/repo',
    scratchDir: '/cache/sbx/ssr',
    cwd: '/repo/sub',
    env: {},
    memoryMb: 512,
    pids: 64,
    command: 'echo "$HOME" \'quoted\'; exit 3',
    ...overrides,
  };
}

/** The values that follow each occurrence of a flag. */
function valuesOf(args: string[], flag: string, arity = 1): string[][] {
  return args.flatMap((arg, index) => (arg === flag ? [args.slice(index + 1, index + 1 + arity)] : []));
}

describe('bwrapArgs', () => {
  it.each(['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session', '--clearenv'])('isolates with %s', (flag) => {
    expect(bwrapArgs(invocation())).toContain(flag);
  });

  it('drops every capability and never shares the network', () => {
    const args = bwrapArgs(invocation());
    expect(valuesOf(args, '--cap-drop')).toEqual([['ALL']]);
    expect(args).not.toContain('--share-net');
  });

  it('mounts the rootfs read-only and the two private directories writable', () => {
    const args = bwrapArgs(invocation());
    expect(valuesOf(args, '--ro-bind', 2)).toEqual([['/cache/rootfs', '/']]);
    expect(valuesOf(args, '--bind', 2)).toEqual([
      ['/cache/sbx/repo', '/repo'],
      ['/cache/sbx/ssr', '/ssr'],
    ]);
  });

  it('gives /ssr a tmpfs when there is no scratch directory, and sizes every tmpfs to the memory limit', () => {
    const args = bwrapArgs(invocation({ scratchDir: undefined }));
    expect(valuesOf(args, '--tmpfs')).toEqual([['/ssr'], ['/tmp'], ['/root'], ['/dev/shm']]);
    expect(valuesOf(args, '--size')).toEqual(Array.from({ length: 3 }, () => [String(512 * 1024 * 1024)]));
    expect(valuesOf(args, '--remount-ro')).toEqual([['/dev']]);
  });

  it('sets the base environment with the caller overriding it', () => {
    const args = bwrapArgs(invocation({ env: { HOME: '/elsewhere', FOO: 'a b' } }));
    const env = Object.fromEntries(valuesOf(args, '--setenv', 2));
    expect(env).toEqual({ ...BASE_ENV, HOME: '/elsewhere', FOO: 'a b' });
  });

  it('passes the command and cwd as their own argv words after the wrapper', () => {
    const args = bwrapArgs(invocation());
    const tail = args.slice(args.indexOf('--'));
    expect(tail.slice(0, 3)).toEqual(['--', 'bash', '-c']);
    expect(tail.slice(4)).toEqual(['ssr-sandbox', 'echo "$HOME" \'quoted\'; exit 3', '/repo/sub']);
    expect(tail[3]).toContain('ulimit -v 524288');
    expect(tail[3]).toContain('ulimit -u 64');
  });

  it.each([
    ['PATH', true],
    ['_x1', true],
    ['1X', false],
    ['A=B', false],
    ['', false],
    ['A B', false],
  ])('env name %j valid: %s', (name, valid) => {
    expect(isValidEnvName(name)).toBe(valid);
  });
});
