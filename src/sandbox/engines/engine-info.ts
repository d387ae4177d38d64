import type Docker from 'dockerode';

/** What `docker info` says about an engine, as far as placing sandboxes on it goes. */
export interface EngineFacts {
  version: string;
  storageDriver: string;
  cgroupVersion: string;
  cgroupDriver: string;
  cpus: number;
  memoryBytes: number;
  /** The cgroup controllers a sandbox's limits need: memory, pids, CPU quota. */
  memoryLimit: boolean;
  pidsLimit: boolean;
  cpuQuota: boolean;
}

/** Memory one episode in flight is counted to need when slots are derived from an engine's memory. */
export const MEMORY_PER_SLOT_BYTES = 2 * 1024 ** 3;

/** Read the facts from an engine that answered a ping. */
export async function engineFacts(docker: Docker): Promise<EngineFacts> {
  const info = (await docker.info()) as Record<string, unknown>;
  const text = (key: string): string => (typeof info[key] === 'string' && info[key] !== '' ? (info[key] as string) : '?');
  return {
    version: text('ServerVersion'),
    storageDriver: text('Driver'),
    cgroupVersion: text('CgroupVersion'),
    cgroupDriver: text('CgroupDriver'),
    cpus: typeof info['NCPU'] === 'number' ? info['NCPU'] : 1,
    memoryBytes: typeof info['MemTotal'] === 'number' ? info['MemTotal'] : 0,
    memoryLimit: info['MemoryLimit'] === true,
    pidsLimit: info['PidsLimit'] === true,
    cpuQuota: info['CpuCfsQuota'] === true,
  };
}

/** Storage drivers that copy the whole image for every container instead of layering on it. */
const COPYING_DRIVERS = new Set(['vfs']);

/**
 * Why sandboxes must not run on an engine, one line each (empty: fine). A sandbox needs its
 * limits enforced (memory, pids, CPU through cgroups) and a layered storage driver: with `vfs`
 * every sandbox start copies the whole image.
 */
export function engineProblems(facts: EngineFacts): string[] {
  const problems: string[] = [];
  if (COPYING_DRIVERS.has(facts.storageDriver)) {
    problems.push(`storage driver ${facts.storageDriver} copies the whole image for every sandbox; start dockerd with --storage-driver=overlay2 on a filesystem that supports overlay`);
  }
  if (facts.cgroupDriver === 'none') problems.push('no cgroups (cgroup driver none): sandbox limits cannot be enforced; run dockerd where cgroups are mounted (not rootless without cgroup v2 delegation)');
  const missing = [!facts.memoryLimit && 'memory', !facts.pidsLimit && 'pids', !facts.cpuQuota && 'cpu quota'].filter((name): name is string => name !== false);
  if (missing.length > 0) problems.push(`the engine cannot enforce the sandbox limits (${missing.join(', ')} cgroup support missing); enable those cgroup controllers for dockerd`);
  return problems;
}

/** Episodes an engine takes at once: one per CPU, fewer when memory is short ({@link MEMORY_PER_SLOT_BYTES} each); at least 1. */
export function slotsOf(facts: Pick<EngineFacts, 'cpus' | 'memoryBytes'>): number {
  const byMemory = facts.memoryBytes > 0 ? Math.floor(facts.memoryBytes / MEMORY_PER_SLOT_BYTES) : facts.cpus;
  return Math.max(1, Math.min(facts.cpus, byMemory));
}
