import { describe, expect, it } from 'vitest';
import { bwrapLimitsCheck } from '../../../src/cli/commands/doctor.js';
import { probeCgroupLimits } from '../../../src/sandbox/bwrap/cgroup-probe.js';

describe('ssr doctor: bwrap limits', () => {
  it('is ok when cgroups enforce every limit', () => {
    const check = bwrapLimitsCheck({
      hierarchies: [{ version: 2, mount: '/sys/fs/cgroup', controllers: ['pids', 'memory', 'cpu'] }],
      unenforced: [],
    });
    expect(check).toEqual({ name: 'bwrap limits', status: 'ok', detail: 'bwrap sandboxes get cgroup limits: pids (v2 /sys/fs/cgroup), memory (v2 /sys/fs/cgroup), cpu (v2 /sys/fs/cgroup)' });
  });

  it('says which limits are not enforced, why, and what to do', () => {
    const reason = 'cannot prepare /sys/fs/cgroup/pids/ssr (cgroup v1): EROFS: read-only file system';
    const check = bwrapLimitsCheck({ hierarchies: [], unenforced: (['pids', 'cpu', 'memory'] as const).map((controller) => ({ controller, reason })) });
    expect(check.status).toBe('missing');
    expect(check.detail).toBe(`bwrap: pids/cpu/memory limits not enforced: ${reason}`);
    expect(check.fix).toContain('root');
  });

  it('reports this host as probed, never throwing', async () => {
    const support = await probeCgroupLimits();
    const check = bwrapLimitsCheck(support);
    expect(check.status).toBe(support.unenforced.length === 0 ? 'ok' : 'missing');
    for (const { controller } of support.unenforced) expect(check.detail).toContain(controller);
  });
});
