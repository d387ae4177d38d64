import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dockerMemoryCgroupDirs, readOomKills } from '../../../src/sandbox/oom-kills.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ssr-oom-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function cgroup(dir: string, file: string, text: string): Promise<string> {
  await mkdir(join(root, dir), { recursive: true });
  await writeFile(join(root, dir, file), text);
  return join(root, dir);
}

describe('readOomKills', () => {
  it.each([
    ['cgroup v2 memory.events', 'memory.events', 'low 0\nhigh 0\nmax 12\noom 3\noom_kill 2\noom_group_kill 0\n', 2],
    ['cgroup v1 memory.oom_control', 'memory.oom_control', 'oom_kill_disable 0\nunder_oom 0\noom_kill 1\n', 1],
    ['a v1 kernel too old to count kills', 'memory.oom_control', 'oom_kill_disable 0\nunder_oom 0\n', null],
  ])('%s', async (_name, file, text, expected) => {
    expect(await readOomKills([await cgroup('c', file, text)])).toBe(expected);
  });

  it('takes the first directory that reports, and null when none exists', async () => {
    const dir = await cgroup('b', 'memory.events', 'oom_kill 5\n');
    expect(await readOomKills([join(root, 'missing'), dir])).toBe(5);
    expect(await readOomKills([join(root, 'missing')])).toBeNull();
  });

  it("lists a container's cgroup for the cgroupfs and systemd drivers, v1 and v2", () => {
    expect(dockerMemoryCgroupDirs('abc', '/cg')).toEqual(['/cg/memory/docker/abc', '/cg/memory/system.slice/docker-abc.scope', '/cg/system.slice/docker-abc.scope', '/cg/docker/abc']);
  });
});
