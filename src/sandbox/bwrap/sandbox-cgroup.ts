import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EngineError, errorMessage } from '../../util/engine-error.js';
import { isProcessAlive } from '../../util/process-alive.js';
import type { SandboxLimits } from '../sandbox.js';
import type { CgroupHierarchy } from './cgroup-mounts.js';
import { CGROUP_PARENT, limitWrites, ownerPidOf, type LimitWrite } from './cgroup-values.js';

/** How long removing a cgroup may keep killing what is left in it before giving up. */
const REMOVE_ATTEMPTS = 40;
const REMOVE_PAUSE_MS = 25;

/** The cgroups (one per hierarchy) every command of one sandbox runs in. */
export interface SandboxCgroup {
  readonly dirs: readonly string[];
  /** Their `cgroup.procs` files: a command's first process writes its pid there before bwrap starts. */
  readonly procsFiles: readonly string[];
  /** SIGKILL whatever is left inside and remove the cgroups. Never throws: a leftover is swept later. */
  dispose(): Promise<void>;
}

async function killMembers(dir: string): Promise<void> {
  // cgroup.kill (v2, Linux 5.14+) kills atomically, fork races included; elsewhere pid by pid.
  const atomic = await writeFile(join(dir, 'cgroup.kill'), '1').then(() => true, () => false);
  if (atomic) return;
  const procs = await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
  for (const pid of procs.split('\n').filter(Boolean)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // exited meanwhile
    }
  }
}

/** Remove one cgroup, killing its members while it is busy. Resolves false when it stays. */
export async function removeCgroup(dir: string): Promise<boolean> {
  for (let attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
    try {
      await rmdir(dir);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return true;
      if (code !== 'EBUSY') return false;
    }
    await killMembers(dir);
    if (attempt > 0) await sleep(REMOVE_PAUSE_MS);
  }
  return false;
}

async function applyLimits(dir: string, writes: readonly LimitWrite[]): Promise<void> {
  await mkdir(dir);
  for (const { file, value, optional } of writes) {
    await writeFile(join(dir, file), value).catch((error: NodeJS.ErrnoException) => {
      if (optional && error.code === 'ENOENT') return;
      throw new Error(`cannot write ${value} to ${join(dir, file)}: ${error.message}`);
    });
  }
}

/**
 * Create the cgroups named `name` (see `cgroupDirName`) under `<mount>/ssr/` of every hierarchy,
 * with `limits` applied. The `ssr` parents must exist (the probe creates them). Rejects with a
 * sandbox-failed EngineError, after removing what it made, when the kernel refuses any step
 * (a usage one, before touching anything, for invalid limits).
 */
export async function createSandboxCgroup(hierarchies: readonly CgroupHierarchy[], name: string, limits: SandboxLimits): Promise<SandboxCgroup> {
  const writes = hierarchies.map((hierarchy) => limitWrites(hierarchy, limits));
  const dirs = hierarchies.map((hierarchy) => join(hierarchy.mount, CGROUP_PARENT, name));
  const dispose = async (): Promise<void> => {
    await Promise.all(dirs.map((dir) => removeCgroup(dir)));
  };
  const made = await Promise.allSettled(dirs.map((dir, index) => applyLimits(dir, writes[index]!)));
  const failure = made.find((outcome) => outcome.status === 'rejected');
  if (failure) {
    await dispose();
    throw new EngineError('sandbox-failed', `cannot set up cgroup ${name}: ${errorMessage(failure.reason)}`, { cause: failure.reason });
  }
  return { dirs, procsFiles: dirs.map((dir) => join(dir, 'cgroup.procs')), dispose };
}

/** Remove the sandbox cgroups of owners (by pid) that are gone, with whatever still runs in them. */
export async function sweepDeadOwnerCgroups(hierarchies: readonly CgroupHierarchy[]): Promise<void> {
  for (const hierarchy of hierarchies) {
    const parent = join(hierarchy.mount, CGROUP_PARENT);
    const entries = await readdir(parent).catch(() => [] as string[]);
    for (const entry of entries) {
      const owner = ownerPidOf(entry);
      if (owner !== undefined && owner !== process.pid && !isProcessAlive(owner)) await removeCgroup(join(parent, entry));
    }
  }
}
