import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The files a memory cgroup reports its OOM kills in: cgroup v2, then v1 (both have an `oom_kill N` line). */
const COUNTER_FILES = ['memory.events', 'memory.oom_control'];

/**
 * Processes the kernel killed for memory in the first of `dirs` (memory cgroup directories on the
 * host) that reports it, or null when none can be read (no such cgroup, no permission, a remote
 * engine). Read on the host, from the kernel's own counter: nothing inside the sandbox can forge
 * it — unlike an exit status of 137, which a process gets as easily from `kill -9 $$`.
 */
export async function readOomKills(dirs: readonly string[]): Promise<number | null> {
  for (const dir of dirs) {
    for (const file of COUNTER_FILES) {
      const text = await readFile(join(dir, file), 'utf8').catch(() => null);
      const count = text === null ? undefined : /^oom_kill (\d+)$/m.exec(text)?.[1];
      if (count !== undefined) return Number(count);
    }
  }
  return null;
}

/** Where the host keeps a Docker container's memory cgroup, for the cgroupfs and systemd drivers, v1 and v2. */
export function dockerMemoryCgroupDirs(containerId: string, root = '/sys/fs/cgroup'): string[] {
  return [
    join(root, 'memory', 'docker', containerId),
    join(root, 'memory', 'system.slice', `docker-${containerId}.scope`),
    join(root, 'system.slice', `docker-${containerId}.scope`),
    join(root, 'docker', containerId),
  ];
}
