import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EngineError } from '../../util/engine-error.js';
import { ssrPath } from '../../util/ssr-home.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox.js';
import { probeBwrap } from './bwrap-probe.js';
import { BwrapSandbox } from './bwrap-sandbox.js';
import { readTemplateManifest, TEMPLATE_REPO } from './template-manifest.js';
import { isProcessAlive } from '../../util/process-alive.js';

const execFileAsync = promisify(execFile);

/**
 * Sandboxes on bubblewrap, for machines without a Docker engine. Each acquire copies the
 * template's repository (`cp -a --reflink=auto`: a cheap clone on btrfs/xfs, a plain copy
 * elsewhere) next to the templates, so reflinks can work, under `<root>/<pid>-<id>`.
 */
export class BwrapProvider implements SandboxProvider {
  readonly backend = 'bwrap' as const;
  private swept?: Promise<void>;

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
    const dir = join(this.root, `${process.pid}-${id}`);
    const mounts = { repo: join(dir, 'repo'), scratch: join(dir, 'ssr') };
    try {
      await mkdir(mounts.scratch, { recursive: true });
      await chmod(mounts.scratch, 0o1777);
      await execFileAsync('cp', ['-a', '--reflink=auto', '--', join(template.ref, TEMPLATE_REPO), mounts.repo]);
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      const message = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
      const code = /No space left/i.test(message) ? 'disk-full' : 'sandbox-failed';
      throw new EngineError(code, `cannot copy template ${template.ref} into a sandbox: ${message}`, { cause: error });
    }
    return new BwrapSandbox({ id, dir, mounts, rootfs: manifest.rootfs.dir, limits: template.limits });
  }

  /** Remove sandbox directories left by processes that died without disposing them. */
  private async sweepDeadOwners(): Promise<void> {
    const entries = await readdir(this.root).catch(() => [] as string[]);
    for (const entry of entries) {
      const pid = Number(entry.split('-')[0]);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isProcessAlive(pid)) {
        await rm(join(this.root, entry), { recursive: true, force: true }).catch(() => undefined);
      }
    }
  }
}
