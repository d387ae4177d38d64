import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { probeBwrap, probeViewArgs } from '../../../src/sandbox/bwrap/bwrap-probe.js';

describe('the bubblewrap probe', () => {
  it('never binds the whole host root, whose container mounts come and go while bwrap remounts them', () => {
    const args = probeViewArgs();
    const bound = args.flatMap((arg, index) => (arg === '--ro-bind' || arg === '--bind' ? [args[index + 1]] : []));
    expect(bound).toContain('/usr');
    expect(bound).not.toContain('/');
  });

  it('starts a sandbox with the same namespaces as every sandbox on that minimal view', async () => {
    // CI installs bubblewrap (scripts/setup-host): the probe must pass there, not skip.
    expect(execFileSync('bwrap', ['--version']).toString()).toMatch(/bubblewrap/);
    await expect(probeBwrap()).resolves.toBeUndefined();
  });
});
