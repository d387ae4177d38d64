import { EngineError } from '../../util/engine-error.js';
import type { SandboxLimits } from '../sandbox.js';
import type { CgroupHierarchy, LimitedController } from './cgroup-mounts.js';

/** Directory under each hierarchy's mount that holds every ssr sandbox cgroup. */
export const CGROUP_PARENT = 'ssr';
/** CFS period the cpu quota is expressed in (the kernel's default). */
export const CPU_PERIOD_US = 100_000;
/** The kernel refuses a CFS quota below 1 ms. */
const MIN_CPU_QUOTA_US = 1000;
const SANDBOX_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** One value to write into a control file of a sandbox cgroup, in order. */
export interface LimitWrite {
  file: string;
  value: string;
  /** Written only where the kernel has the file (swap accounting may be off). */
  optional: boolean;
}

/**
 * `<owner pid>-<sandbox id>`: the owner's pid lets a later process remove the cgroups of owners
 * that died without disposing them.
 */
export function cgroupDirName(ownerPid: number, sandboxId: string): string {
  if (!Number.isInteger(ownerPid) || ownerPid <= 0) throw new EngineError('usage', `cgroup owner pid must be a positive integer, got ${ownerPid}`);
  if (!SANDBOX_ID.test(sandboxId)) throw new EngineError('usage', `sandbox id ${JSON.stringify(sandboxId)} cannot name a cgroup (letters, digits, _ . - only)`);
  return `${ownerPid}-${sandboxId}`;
}

/** The owner pid of a directory named by {@link cgroupDirName}; undefined for any other name. */
export function ownerPidOf(dirName: string): number | undefined {
  const match = /^([1-9][0-9]*)-./.exec(dirName);
  return match ? Number(match[1]) : undefined;
}

export function cpuQuotaUs(cpus: number): number {
  return Math.max(MIN_CPU_QUOTA_US, Math.round(cpus * CPU_PERIOD_US));
}

function assertLimits(limits: SandboxLimits): void {
  const bad = [
    !Number.isInteger(limits.pids) || limits.pids < 1 ? `pids ${limits.pids}` : undefined,
    !Number.isInteger(limits.memoryMb) || limits.memoryMb < 1 ? `memoryMb ${limits.memoryMb}` : undefined,
    !Number.isFinite(limits.cpus) || limits.cpus <= 0 ? `cpus ${limits.cpus}` : undefined,
  ].filter((entry) => entry !== undefined);
  if (bad.length > 0) throw new EngineError('usage', `invalid sandbox limits: ${bad.join(', ')} (pids and memoryMb: positive integers; cpus: a positive number)`);
}

function writesOf(version: 1 | 2, controller: LimitedController, limits: SandboxLimits): LimitWrite[] {
  const bytes = String(limits.memoryMb * 1024 * 1024);
  const quota = cpuQuotaUs(limits.cpus);
  const required = (file: string, value: string): LimitWrite => ({ file, value, optional: false });
  if (controller === 'pids') return [required('pids.max', String(limits.pids))];
  if (controller === 'memory') {
    // Swap must not stretch the limit: memsw (v1, set after the limit it may not undercut) and
    // swap.max (v2) exist only where swap accounting is on.
    return version === 1
      ? [required('memory.limit_in_bytes', bytes), { file: 'memory.memsw.limit_in_bytes', value: bytes, optional: true }]
      : [required('memory.max', bytes), { file: 'memory.swap.max', value: '0', optional: true }];
  }
  return version === 1
    ? [required('cpu.cfs_period_us', String(CPU_PERIOD_US)), required('cpu.cfs_quota_us', String(quota))]
    : [required('cpu.max', `${quota} ${CPU_PERIOD_US}`)];
}

/** What to write, in order, into a sandbox's cgroup of `hierarchy` to apply `limits`. */
export function limitWrites(hierarchy: CgroupHierarchy, limits: SandboxLimits): LimitWrite[] {
  assertLimits(limits);
  return hierarchy.controllers.flatMap((controller) => writesOf(hierarchy.version, controller, limits));
}
