import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bwrapArgs } from '../../../src/sandbox/bwrap/bwrap-args.js';
import { startBwrap } from '../../../src/sandbox/bwrap/bwrap-run.js';
import { rejection } from '../../helpers/rejection.js';

describe('startBwrap failures before the sandbox is up', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('reports a missing bwrap as bwrap-unavailable with the install hint', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ssr-no-bwrap-'));
    vi.stubEnv('PATH', empty);
    try {
      const error = await rejection(startBwrap(['--', 'true']).result);
      expect(error.code).toBe('bwrap-unavailable');
      expect(error.message).toContain('apt-get install bubblewrap');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('reports a missing bwrap the same way when it starts through the cgroup-joining shell', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ssr-no-bwrap-'));
    vi.stubEnv('PATH', empty);
    try {
      // A plain file stands in for cgroup.procs: the shell writes its pid there, then execs bwrap.
      const error = await rejection(startBwrap(['--', 'true'], { cgroupProcs: [join(empty, 'cgroup.procs')] }).result);
      expect(error.code).toBe('bwrap-unavailable');
      expect(error.message).toContain('apt-get install bubblewrap');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('reports a cgroup it cannot enter as sandbox-failed, naming the cgroup', async () => {
    const missing = '/nonexistent-cgroup/ssr/1-bwrap-x/cgroup.procs';
    const error = await rejection(startBwrap(['--', 'true'], { cgroupProcs: [missing] }).result);
    expect(error.code).toBe('sandbox-failed');
    expect(error.message).toContain(`cannot join cgroup ${missing}`);
  });

  it('reports a sandbox bwrap cannot set up as sandbox-failed, not as a command result', async () => {
    const args = bwrapArgs({ rootfs: '/nonexistent-rootfs', repoDir: '/nonexistent-repo', cwd: '/repo', env: {}, memoryMb: 256, pids: 64, command: 'true' });
    const error = await rejection(startBwrap(args).result);
    expect(error.code).toBe('sandbox-failed');
    expect(error.message).toContain('/nonexistent');
  });
});
