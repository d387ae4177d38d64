import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { errorMessage } from '../../util/engine-error.js';
import { joinCgroupsArgv } from './cgroup-join.js';
import { LIMITED_CONTROLLERS, parseCgroupMounts, planHierarchies, type CgroupHierarchy, type LimitedController } from './cgroup-mounts.js';
import { CGROUP_PARENT, cgroupDirName } from './cgroup-values.js';
import { createSandboxCgroup } from './sandbox-cgroup.js';

const execFileAsync = promisify(execFile);

/** Which sandbox limits cgroups enforce on this host, and why the others are not. */
export interface CgroupSupport {
  /** Where every sandbox gets a cgroup; empty when no limit is enforced. */
  hierarchies: CgroupHierarchy[];
  unenforced: { controller: LimitedController; reason: string }[];
}

const TRIAL_LIMITS = { memoryMb: 64, cpus: 1, pids: 16 };

function notRootNote(): string {
  const uid = process.geteuid?.();
  return uid !== undefined && uid !== 0 ? ` (ssr runs as uid ${uid}; cgroups need root)` : '';
}

async function enableV2Controllers(cgroup: string, controllers: readonly LimitedController[]): Promise<void> {
  const file = join(cgroup, 'cgroup.subtree_control');
  const enabled = (await readFile(file, 'utf8')).split(/\s+/);
  const wanted = controllers.filter((controller) => !enabled.includes(controller));
  if (wanted.length > 0) await writeFile(file, wanted.map((controller) => `+${controller}`).join(' '));
}

/** Create `<mount>/ssr` (and on v2 delegate the controllers to it); the reason when refused. */
async function prepareHierarchy(hierarchy: CgroupHierarchy): Promise<string | undefined> {
  const parent = join(hierarchy.mount, CGROUP_PARENT);
  try {
    await mkdir(parent, { recursive: true });
    if (hierarchy.version === 2) {
      // Fails (EBUSY) where the mount's root cgroup is not the real root and holds processes.
      await enableV2Controllers(hierarchy.mount, hierarchy.controllers);
      await enableV2Controllers(parent, hierarchy.controllers);
    }
    return undefined;
  } catch (error) {
    return `cannot prepare ${parent} (cgroup v${hierarchy.version}): ${errorMessage(error)}${notRootNote()}`;
  }
}

/** Make a cgroup with limits, run `true` inside it and remove it: the whole path a sandbox takes. */
async function trialJoin(hierarchies: readonly CgroupHierarchy[]): Promise<string | undefined> {
  try {
    const cgroup = await createSandboxCgroup(hierarchies, cgroupDirName(process.pid, 'probe'), TRIAL_LIMITS);
    try {
      const [file, args] = joinCgroupsArgv(cgroup.procsFiles, ['true']);
      await execFileAsync(file, args, { timeout: 10_000 });
    } finally {
      await cgroup.dispose();
    }
    return undefined;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    return `a trial cgroup failed: ${stderr || errorMessage(error)}${notRootNote()}`;
  }
}

async function detect(): Promise<CgroupSupport> {
  const none = (reason: string): CgroupSupport => ({ hierarchies: [], unenforced: LIMITED_CONTROLLERS.map((controller) => ({ controller, reason })) });
  if (process.platform !== 'linux') return none(`cgroups exist only on Linux, not ${process.platform}`);
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8').catch(() => undefined);
  if (mountinfo === undefined) return none('cannot read /proc/self/mountinfo');
  const mounts = parseCgroupMounts(mountinfo);
  const v2Controllers = mounts.v2 === undefined ? '' : await readFile(join(mounts.v2, 'cgroup.controllers'), 'utf8').catch(() => '');
  const plan = planHierarchies(mounts, v2Controllers.split(/\s+/));
  const unenforced = plan.missing.map((controller) => ({ controller, reason: `no mounted cgroup hierarchy has the ${controller} controller` }));
  let hierarchies: CgroupHierarchy[] = [];
  for (const hierarchy of plan.hierarchies) {
    const refused = await prepareHierarchy(hierarchy);
    if (refused === undefined) hierarchies.push(hierarchy);
    else unenforced.push(...hierarchy.controllers.map((controller) => ({ controller, reason: refused })));
  }
  const failed = hierarchies.length > 0 ? await trialJoin(hierarchies) : undefined;
  if (failed !== undefined) {
    unenforced.push(...hierarchies.flatMap((hierarchy) => hierarchy.controllers.map((controller) => ({ controller, reason: failed }))));
    hierarchies = [];
  }
  return { hierarchies, unenforced };
}

let probe: Promise<CgroupSupport> | undefined;

/**
 * Find, once per process, which of the pids, memory and cpu limits bwrap sandboxes can get from
 * cgroups here (v1 per-controller hierarchies, or v2 with the controllers delegated), by actually
 * creating a limited cgroup and running a process in it. Never rejects: what cannot be enforced
 * (not mounted, read-only, not root) comes back as data, with the reason.
 */
export function probeCgroupLimits(): Promise<CgroupSupport> {
  probe ??= detect();
  return probe;
}

/** One line for `ssr doctor`: what is enforced, or which limits are not and why. */
export function describeCgroupSupport(support: CgroupSupport): string {
  const enforced = support.hierarchies.flatMap((hierarchy) => hierarchy.controllers.map((controller) => `${controller} (v${hierarchy.version} ${hierarchy.mount})`));
  const reasons = new Map<string, LimitedController[]>();
  for (const { controller, reason } of support.unenforced) reasons.set(reason, [...(reasons.get(reason) ?? []), controller]);
  const gaps = [...reasons].map(([reason, controllers]) => `bwrap: ${controllers.join('/')} limits not enforced: ${reason}`);
  if (gaps.length === 0) return `bwrap sandboxes get cgroup limits: ${enforced.join(', ')}`;
  return [...gaps, ...(enforced.length > 0 ? [`enforced: ${enforced.join(', ')}`] : [])].join('; ');
}
