import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EngineError, errorMessage, isEngineError } from '../../util/engine-error.js';
import { ssrPath } from '../../util/ssr-home.js';
import type { Sandbox, SandboxLimits, SandboxProvider, SandboxTemplate } from '../sandbox.js';
import { probeBwrap } from './bwrap-probe.js';
import { BwrapSandbox } from './bwrap-sandbox.js';
import { probeCgroupLimits, type CgroupSupport } from './cgroup-probe.js';
import { cgroupDirName, ownerPidOf } from './cgroup-values.js';
import { createSandboxCgroup, sweepDeadOwnerCgroups, type SandboxCgroup } from './sandbox-cgroup.js';
import { readTemplateManifest, TEMPLATE_REPO } from './template-manifest.js';
import { isProcessAlive } from '../../util/process-alive.js';

const execFileAsync = promisify(execFile);

/**
 * Sandboxes on bubblewrap, for machines without a Docker engine. Each acquire copies the
 * template's repository (`cp -a --reflink=auto`: a cheap clone on btrfs/xfs, a plain copy
 * elsewhere) next to the templates, so reflinks can work, under `<root>/<pid>-<id>`, and gives
 * it cgroups enforcing the template's pids, memory and cpu limits where the host allows (see
 * {@link BwrapProvider.limitEnforcement}); elsewhere its commands keep only their rlimits.
 */
export class BwrapProvider implements SandboxProvider {
  readonly backend = 'bwrap' as const;
  private swept?: Promise<void>;
  /** Why the latest acquire got no cgroup although the probe found them usable. */
  private cgroupFailure?: string;

  constructor(private readonly root: string = ssrPath('bwrap', '.sandboxes')) {}

  async acquire(template: SandboxTemplate): Promise<Sandbox> {
    if (template.backend !== 'bwrap') throw new EngineError('usage', `BwrapProvider cannot use a ${template.backend} template`);
    await probeBwrap();
    const manifest = await readTemplateManifest(template.ref);
    if (!existsSync(manifest.rootfs.dir)) {
      throw new EngineError('sandbox-failed', `rootfs ${manifest.rootfs.dir} of template ${template.ref} is gone; rebuild with: ssr build-image --repo ${template.repoId} --sandbox bwrap`);
    }
    this.swept ??= this.sweepDeadOwners();
    await this.swept;
    const id = `bwrap-${randomBytes(6).toString('hex')}`;
    // The directory and the cgroups share one owner-tagged name, so one rule sweeps both.
    const name = cgroupDirName(process.pid, id);
    const dir = join(this.root, name);
    const mounts = { repo: join(dir, 'repo'), scratch: join(dir, 'ssr'), tmp: join(dir, 'tmp'), home: join(dir, 'home') };
    const cgroup = await this.createCgroup(name, template.limits);
    try {
      // Modes as on a fresh system: world-writable sticky scratch and /tmp, a private home.
      for (const [path, mode] of [[mounts.scratch, 0o1777], [mounts.tmp, 0o1777], [mounts.home, 0o700]] as const) {
        await mkdir(path, { recursive: true });
        await chmod(path, mode);
      }
      await execFileAsync('cp', ['-a', '--reflink=auto', '--', join(template.ref, TEMPLATE_REPO), mounts.repo]);
    } catch (error) {
      await Promise.all([rm(dir, { recursive: true, force: true }), cgroup?.dispose()]);
      const message = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
      const code = /No space left/i.test(message) ? 'disk-full' : 'sandbox-failed';
      throw new EngineError(code, `cannot copy template ${template.ref} into a sandbox: ${message}`, { cause: error });
    }
    return new BwrapSandbox({ id, dir, mounts, rootfs: manifest.rootfs.dir, limits: template.limits, cgroup });
  }

  /**
   * Which limits sandboxes from here get from cgroups, and why the others are not enforced (the
   * host's answer, or the failure of the latest acquire's cgroup). Never rejects.
   */
  async limitEnforcement(): Promise<CgroupSupport> {
    const support = await probeCgroupLimits();
    const failure = this.cgroupFailure;
    if (failure === undefined) return support;
    const lost = support.hierarchies.flatMap((hierarchy) => hierarchy.controllers.map((controller) => ({ controller, reason: failure })));
    return { hierarchies: [], unenforced: [...support.unenforced, ...lost] };
  }

  /** A cgroup for the sandbox, or none (recorded) when the kernel refuses: never fatal. */
  private async createCgroup(name: string, limits: SandboxLimits): Promise<SandboxCgroup | undefined> {
    const { hierarchies } = await probeCgroupLimits();
    if (hierarchies.length === 0) return undefined;
    try {
      const cgroup = await createSandboxCgroup(hierarchies, name, limits);
      this.cgroupFailure = undefined;
      return cgroup;
    } catch (error) {
      if (isEngineError(error) && error.code === 'usage') throw error;
      this.cgroupFailure = errorMessage(error);
      return undefined;
    }
  }

  /** Remove sandbox directories and cgroups left by processes that died without disposing them. */
  private async sweepDeadOwners(): Promise<void> {
    await sweepDeadOwnerCgroups((await probeCgroupLimits()).hierarchies);
    const entries = await readdir(this.root).catch(() => [] as string[]);
    for (const entry of entries) {
      const pid = ownerPidOf(entry);
      if (pid !== undefined && pid !== process.pid && !isProcessAlive(pid)) {
        await rm(join(this.root, entry), { recursive: true, force: true }).catch(() => undefined);
      }
    }
  }
}
