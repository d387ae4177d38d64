import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureRootfsHosts, LOOPBACK_HOSTS } from '../../../src/sandbox/images/rootfs-hosts.js';
import type { ProgressEvent } from '../../../src/util/progress.js';

describe('ensureRootfsHosts', () => {
  const roots: string[] = [];
  function rootfs(): string {
    const root = mkdtempSync(join(tmpdir(), 'ssr-rootfs-'));
    roots.push(root);
    mkdirSync(join(root, 'etc'));
    return root;
  }
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it('adds an /etc/hosts naming localhost on both loopback addresses to a rootfs that has none', async () => {
    const root = rootfs();
    const events: ProgressEvent[] = [];
    await ensureRootfsHosts(root, (event) => events.push(event));
    expect(readFileSync(join(root, 'etc/hosts'), 'utf8')).toBe(LOOPBACK_HOSTS);
    expect(LOOPBACK_HOSTS).toMatch(/^127\.0\.0\.1\tlocalhost$/m);
    expect(LOOPBACK_HOSTS).toMatch(/^::1\tlocalhost\b/m);
    expect(events).toEqual([]);
  });

  it('leaves an existing /etc/hosts as it is', async () => {
    const root = rootfs();
    writeFileSync(join(root, 'etc/hosts'), '127.0.0.1 localhost mine\n');
    await ensureRootfsHosts(root, () => undefined);
    expect(readFileSync(join(root, 'etc/hosts'), 'utf8')).toBe('127.0.0.1 localhost mine\n');
  });

  it('warns, and goes on, when the file cannot be written (here: no /etc at all)', async () => {
    const root = rootfs();
    rmSync(join(root, 'etc'), { recursive: true });
    const events: ProgressEvent[] = [];
    await ensureRootfsHosts(root, (event) => events.push(event));
    expect(events.map((event) => event.message)).toEqual([expect.stringMatching(/^warning: cannot add .*etc\/hosts .*localhost will not resolve in bwrap sandboxes/)]);
  });
});
