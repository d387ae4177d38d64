import { describe, expect, it } from 'vitest';
import { BASE_ENV, bwrapArgs, type BwrapInvocation } from '../../../src/sandbox/bwrap/bwrap-args.js';
import { isValidEnvName } from '../../../src/sandbox/check-exec-options.js';

function invocation(overrides: Partial<BwrapInvocation> = {}): BwrapInvocation {
  return {
    rootfs: '/cache/rootfs',
    repoDir: '/cache/sbx/repo',
    scratchDir: '/cache/sbx/ssr',
    tmpDir: '/cache/sbx/tmp',
    homeDir: '/cache/sbx/home',
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

  it('mounts the rootfs read-only and the sandbox\'s own directories writable, so they persist between commands', () => {
    const args = bwrapArgs(invocation());
    expect(valuesOf(args, '--ro-bind', 2)).toEqual([['/cache/rootfs', '/']]);
    expect(valuesOf(args, '--bind', 2)).toEqual([
      ['/cache/sbx/repo', '/repo'],
      ['/cache/sbx/ssr', '/ssr'],
      ['/cache/sbx/tmp', '/tmp'],
      ['/cache/sbx/home', '/root'],
    ]);
    expect(valuesOf(args, '--tmpfs')).toEqual([['/dev/shm']]);
  });

  it('gives each missing directory a tmpfs (template setup), and sizes every tmpfs to the memory limit', () => {
    const args = bwrapArgs(invocation({ scratchDir: undefined, tmpDir: undefined, homeDir: undefined }));
    expect(valuesOf(args, '--bind', 2)).toEqual([['/cache/sbx/repo', '/repo']]);
    expect(valuesOf(args, '--tmpfs')).toEqual([['/ssr'], ['/tmp'], ['/root'], ['/dev/shm']]);
    expect(valuesOf(args, '--perms')).toEqual([['1777'], ['1777'], ['0700'], ['1777']]);
    expect(valuesOf(args, '--size')).toEqual(Array.from({ length: 4 }, () => [String(512 * 1024 * 1024)]));
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
