/** The controllers behind {@link SandboxLimits}: each bwrap sandbox's cgroup enforces these. */
export const LIMITED_CONTROLLERS = ['pids', 'memory', 'cpu'] as const;
export type LimitedController = (typeof LIMITED_CONTROLLERS)[number];

/** One mounted cgroup hierarchy that carries some of the {@link LIMITED_CONTROLLERS}. */
export interface CgroupHierarchy {
  version: 1 | 2;
  /** Where the hierarchy is mounted; sandbox cgroups go under `<mount>/ssr/`. */
  mount: string;
  /** The limited controllers this hierarchy carries, in {@link LIMITED_CONTROLLERS} order. */
  controllers: LimitedController[];
}

/** The cgroup filesystems of `/proc/self/mountinfo`. */
export interface CgroupMounts {
  /** cgroup v1 mounts with their super options (`rw`, `cpu`, `cpuacct`, `name=systemd`, ...). */
  v1: { mount: string; options: string[] }[];
  /** The cgroup v2 mount (`/sys/fs/cgroup`, or `/sys/fs/cgroup/unified` on a hybrid host). */
  v2?: string;
}

/** mountinfo escapes space, tab, newline and backslash in paths as `\ooo`. */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** Parse `/proc/self/mountinfo` (see proc(5)); the first mount of a hierarchy wins. */
export function parseCgroupMounts(mountinfo: string): CgroupMounts {
  const mounts: CgroupMounts = { v1: [] };
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    if (left === undefined || right === undefined) continue;
    const mount = left.split(' ')[4];
    const [fstype, , superOptions = ''] = right.split(' ');
    if (mount === undefined) continue;
    if (fstype === 'cgroup') mounts.v1.push({ mount: unescapeMountPath(mount), options: superOptions.split(',') });
    if (fstype === 'cgroup2') mounts.v2 ??= unescapeMountPath(mount);
  }
  return mounts;
}

/**
 * Where each limited controller lives: a controller bound to a v1 hierarchy is used there (a
 * controller can be bound to one hierarchy only); otherwise the v2 hierarchy, when its root's
 * `cgroup.controllers` (given as `v2Controllers`) lists it. `missing` are the controllers found
 * in neither.
 */
export function planHierarchies(mounts: CgroupMounts, v2Controllers: readonly string[]): { hierarchies: CgroupHierarchy[]; missing: LimitedController[] } {
  const hierarchies: CgroupHierarchy[] = [];
  const onV2: LimitedController[] = [];
  const missing: LimitedController[] = [];
  for (const controller of LIMITED_CONTROLLERS) {
    const v1 = mounts.v1.find((mount) => mount.options.includes(controller));
    if (v1 !== undefined) {
      const shared = hierarchies.find((hierarchy) => hierarchy.mount === v1.mount);
      if (shared) shared.controllers.push(controller);
      else hierarchies.push({ version: 1, mount: v1.mount, controllers: [controller] });
    } else if (mounts.v2 !== undefined && v2Controllers.includes(controller)) {
      onV2.push(controller);
    } else {
      missing.push(controller);
    }
  }
  if (mounts.v2 !== undefined && onV2.length > 0) hierarchies.push({ version: 2, mount: mounts.v2, controllers: onV2 });
  return { hierarchies, missing };
}
