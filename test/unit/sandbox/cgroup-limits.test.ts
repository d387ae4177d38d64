import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JOIN_FAILED_EXIT, joinCgroupsArgv } from '../../../src/sandbox/bwrap/cgroup-join.js';
import { parseCgroupMounts, planHierarchies, type CgroupHierarchy } from '../../../src/sandbox/bwrap/cgroup-mounts.js';
import { describeCgroupSupport } from '../../../src/sandbox/bwrap/cgroup-probe.js';
import { cgroupDirName, cpuQuotaUs, limitWrites, ownerPidOf } from '../../../src/sandbox/bwrap/cgroup-values.js';
import { EngineError } from '../../../src/util/engine-error.js';

const limits = { memoryMb: 256, cpus: 0.5, pids: 64 };

/** mountinfo lines as the kernel writes them (proc(5)); `fields` is what follows " - ". */
function line(id: number, mount: string, fields: string): string {
  return `${id} 23 0:${id} / ${mount} rw,nosuid,nodev,noexec,relatime shared:${id} - ${fields}`;
}

const HYBRID = [
  line(24, '/', 'ext4 /dev/vda rw'),
  line(31, '/sys/fs/cgroup', 'tmpfs tmpfs rw,mode=755'),
  line(32, '/sys/fs/cgroup/cpu,cpuacct', 'cgroup cgroup rw,cpu,cpuacct'),
  line(35, '/sys/fs/cgroup/memory', 'cgroup cgroup rw,memory'),
  line(39, '/sys/fs/cgroup/pids', 'cgroup cgroup rw,pids'),
  line(40, '/sys/fs/cgroup/systemd', 'cgroup cgroup rw,name=systemd'),
  line(41, '/sys/fs/cgroup/unified', 'cgroup2 cgroup2 rw,nsdelegate'),
].join('\n');
const PURE_V2 = [line(24, '/', 'ext4 /dev/vda rw'), line(30, '/sys/fs/cgroup', 'cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot')].join('\n');

describe('parseCgroupMounts + planHierarchies', () => {
  it('uses the v1 hierarchy of each controller on a hybrid host, co-mounted cpu,cpuacct included', () => {
    const mounts = parseCgroupMounts(HYBRID);
    expect(mounts.v2).toBe('/sys/fs/cgroup/unified');
    expect(planHierarchies(mounts, ['hugetlb'])).toEqual({
      hierarchies: [
        { version: 1, mount: '/sys/fs/cgroup/pids', controllers: ['pids'] },
        { version: 1, mount: '/sys/fs/cgroup/memory', controllers: ['memory'] },
        { version: 1, mount: '/sys/fs/cgroup/cpu,cpuacct', controllers: ['cpu'] },
      ],
      missing: [],
    });
  });

  it('puts every controller the v2 root offers into one v2 hierarchy', () => {
    expect(planHierarchies(parseCgroupMounts(PURE_V2), ['cpuset', 'cpu', 'io', 'memory', 'pids'])).toEqual({
      hierarchies: [{ version: 2, mount: '/sys/fs/cgroup', controllers: ['pids', 'memory', 'cpu'] }],
      missing: [],
    });
  });

  it('mixes v1 and v2 and reports the controllers found nowhere', () => {
    const mounts = parseCgroupMounts([line(39, '/sys/fs/cgroup/pids', 'cgroup cgroup rw,pids'), line(41, '/cg2', 'cgroup2 cgroup2 rw')].join('\n'));
    expect(planHierarchies(mounts, ['memory'])).toEqual({
      hierarchies: [
        { version: 1, mount: '/sys/fs/cgroup/pids', controllers: ['pids'] },
        { version: 2, mount: '/cg2', controllers: ['memory'] },
      ],
      missing: ['cpu'],
    });
  });

  it('finds nothing without cgroup mounts, and unescapes mount paths', () => {
    expect(planHierarchies(parseCgroupMounts(line(24, '/', 'ext4 /dev/vda rw')), [])).toEqual({ hierarchies: [], missing: ['pids', 'memory', 'cpu'] });
    expect(parseCgroupMounts(line(39, '/mnt/my\\040cgroups', 'cgroup cgroup rw,pids')).v1[0]!.mount).toBe('/mnt/my cgroups');
  });
});

describe('limitWrites', () => {
  const v1 = (controllers: CgroupHierarchy['controllers']): CgroupHierarchy => ({ version: 1, mount: '/cg', controllers });
  const v2: CgroupHierarchy = { version: 2, mount: '/cg', controllers: ['pids', 'memory', 'cpu'] };

  it.each([
    [['pids'] as const, [['pids.max', '64', false]]],
    [['memory'] as const, [['memory.limit_in_bytes', '268435456', false], ['memory.memsw.limit_in_bytes', '268435456', true]]],
    [['cpu'] as const, [['cpu.cfs_period_us', '100000', false], ['cpu.cfs_quota_us', '50000', false]]],
  ])('v1 %s', (controllers, expected) => {
    expect(limitWrites(v1([...controllers]), limits).map((write) => [write.file, write.value, write.optional])).toEqual(expected);
  });

  it('v2: pids.max, memory.max without swap, cpu.max as "quota period"', () => {
    expect(limitWrites(v2, limits).map((write) => [write.file, write.value, write.optional])).toEqual([
      ['pids.max', '64', false],
      ['memory.max', '268435456', false],
      ['memory.swap.max', '0', true],
      ['cpu.max', '50000 100000', false],
    ]);
  });

  it.each([
    [2, 200_000],
    [1.5, 150_000],
    [0.333, 33_300],
    [0.001, 1000],
  ])('cpus %s → a %s µs quota per 100 ms (never under the kernel minimum)', (cpus, quota) => {
    expect(cpuQuotaUs(cpus)).toBe(quota);
  });

  it.each([
    [{ ...limits, pids: 0 }, 'pids 0'],
    [{ ...limits, memoryMb: 1.5 }, 'memoryMb 1.5'],
    [{ ...limits, cpus: 0 }, 'cpus 0'],
    [{ ...limits, cpus: Number.NaN }, 'cpus NaN'],
  ])('refuses invalid limits %j', (bad, named) => {
    expect(() => limitWrites(v2, bad)).toThrow(EngineError);
    expect(() => limitWrites(v2, bad)).toThrow(named);
  });
});

describe('cgroup names', () => {
  it('round-trips the owner pid', () => {
    expect(cgroupDirName(4242, 'bwrap-0a1b2c')).toBe('4242-bwrap-0a1b2c');
    expect(ownerPidOf('4242-bwrap-0a1b2c')).toBe(4242);
  });

  it.each(['cgroup.procs', 'pids.max', 'tasks', '0-x', '12', 'abc-12'])('ignores %s when sweeping', (name) => {
    expect(ownerPidOf(name)).toBeUndefined();
  });

  it.each([
    [1, '../escape'],
    [1, 'a/b'],
    [1, ''],
    [0, 'bwrap-1'],
  ])('refuses owner %s with id %j', (pid, id) => {
    expect(() => cgroupDirName(pid, id)).toThrow(EngineError);
  });
});

describe('joinCgroupsArgv', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-cgroup-join-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes its own pid to every file, then execs the program under that same pid', () => {
    const files = [join(dir, 'a.procs'), join(dir, 'b.procs')];
    const [file, args] = joinCgroupsArgv(files, ['sh', '-c', 'echo "$$ $0 $1"', 'prog', 'arg with space']);
    const result = spawnSync(file, args, { encoding: 'utf8' });
    expect(result.status).toBe(0);
    const [pid, ...rest] = result.stdout.trim().split(' ');
    expect(rest.join(' ')).toBe('prog arg with space');
    for (const procs of files) expect(readFileSync(procs, 'utf8')).toBe(`${pid}\n`);
  });

  it('runs the program as is with no cgroups', () => {
    const [file, args] = joinCgroupsArgv([], ['echo', 'plain']);
    expect(spawnSync(file, args, { encoding: 'utf8' }).stdout).toBe('plain\n');
  });

  it('exits 125 naming the cgroup it cannot join, without running the program', () => {
    const missing = join(dir, 'no-such-cgroup', 'cgroup.procs');
    const [file, args] = joinCgroupsArgv([missing], ['echo', 'ran']);
    const result = spawnSync(file, args, { encoding: 'utf8' });
    expect(result.status).toBe(JOIN_FAILED_EXIT);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`ssr: cannot join cgroup ${missing}`);
  });
});

describe('describeCgroupSupport', () => {
  it('lists what is enforced', () => {
    const support = { hierarchies: [{ version: 1 as const, mount: '/sys/fs/cgroup/pids', controllers: ['pids' as const] }], unenforced: [] };
    expect(describeCgroupSupport(support)).toBe('bwrap sandboxes get cgroup limits: pids (v1 /sys/fs/cgroup/pids)');
  });

  it('groups the unenforced limits by reason', () => {
    const reason = 'cannot prepare /sys/fs/cgroup/ssr (cgroup v2): EACCES (ssr runs as uid 1000; cgroups need root)';
    const support = {
      hierarchies: [],
      unenforced: [
        { controller: 'pids' as const, reason },
        { controller: 'memory' as const, reason },
        { controller: 'cpu' as const, reason: 'no mounted cgroup hierarchy has the cpu controller' },
      ],
    };
    expect(describeCgroupSupport(support)).toBe(
      `bwrap: pids/memory limits not enforced: ${reason}; bwrap: cpu limits not enforced: no mounted cgroup hierarchy has the cpu controller`,
    );
  });
});
