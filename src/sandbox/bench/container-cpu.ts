import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * CPU time a Docker container's processes have used so far, ms, from its cgroup (v1 cpuacct or
 * v2 cpu.stat); undefined where the host does not expose it. `idPrefix`: the sandbox's id (12
 * characters). CPU time, unlike wall time, hardly moves with the machine's load, so the benches
 * report it beside the wall time when the machine is busy.
 */
export function containerCpuMs(idPrefix: string, root = '/sys/fs/cgroup'): number | undefined {
  const places: [string, (text: string) => number | undefined][] = [
    [join(root, 'cpuacct', 'docker'), (text) => Number(text) / 1e6],
    [join(root, 'cpu,cpuacct', 'docker'), (text) => Number(text) / 1e6],
  ];
  for (const [dir, read] of places) {
    const id = safeList(dir).find((name) => name.startsWith(idPrefix));
    if (id) return read(readFileSync(join(dir, id, 'cpuacct.usage'), 'utf8'));
  }
  for (const dir of [join(root, 'system.slice'), join(root, 'docker')]) {
    const name = safeList(dir).find((entry) => entry.startsWith(idPrefix) || entry.startsWith(`docker-${idPrefix}`));
    if (!name) continue;
    const usec = /usage_usec (\d+)/.exec(readFileSync(join(dir, name, 'cpu.stat'), 'utf8'))?.[1];
    return usec === undefined ? undefined : Number(usec) / 1000;
  }
  return undefined;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
