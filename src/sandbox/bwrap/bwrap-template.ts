import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEBIAN_PYTHON_BASE } from '../../config/repos-schema.js';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import { buildStep } from '../images/setup-step.js';
import { copyScanScript, parseCopyScan, refuseCodeCopies, copySummaries } from '../images/copy-scan.js';
import type { ProgressSink } from '../../util/progress.js';
import { EngineError } from '../../util/engine-error.js';
import { ssrPath } from '../../util/ssr-home.js';
import { ensureBaseRootfs } from '../images/base-rootfs.js';
import { withFileLock } from '../images/file-lock.js';
import { limitsOf } from '../repo-limits.js';
import { REPO_DIR, type SandboxTemplate } from '../sandbox.js';
import { bwrapArgs } from './bwrap-args.js';
import { probeBwrap } from './bwrap-probe.js';
import { startBwrap } from './bwrap-run.js';
import { cloneAtCommit } from './clone-at-commit.js';
import { readTemplateManifest, TEMPLATE_MANIFEST, TEMPLATE_REPO, type BwrapTemplateManifest } from './template-manifest.js';

/** Bump when the template layout or build steps change, so older templates are rebuilt. */
const TEMPLATE_VERSION = 2;
/** One setup command (a build step, no network) may run this long. */
const SETUP_TIMEOUT_MS = 30 * 60_000;

/** Where the bwrap templates live: `$SSR_HOME/bwrap/<repo id>-<hash>`. */
export function bwrapTemplatesDir(): string {
  return ssrPath('bwrap');
}

function templateHash(repo: ResolvedRepo, rootfsHash: string): string {
  const canonical = JSON.stringify({ version: TEMPLATE_VERSION, location: repo.location, commit: repo.commit, setup: repo.image.setup, rootfsHash });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 12);
}

/**
 * The shell steps of a recipe bwrap can run. A bwrap template shares one read-only Debian rootfs,
 * so a step that installs into the system Python, or another base image, cannot be honoured:
 * refuse clearly instead of building something else.
 */
export function bwrapSetupCommands(repo: ResolvedRepo): string[] {
  if (repo.image.base !== DEBIAN_PYTHON_BASE) {
    throw new EngineError('config-invalid', `${repo.id}: image.base ${repo.image.base} is a Docker image; bubblewrap sandboxes only start from ssr's debian-python rootfs: use --sandbox docker`);
  }
  return repo.image.setup.map((step, index) => {
    if (typeof step === 'string') return step;
    const origin = repo.setupOrigins?.[index] ?? `${repo.id}: image.setup[${index}]`;
    const built = buildStep(step);
    const why = built.tool === 'npm' ? 'installs from the npm registry, which a bubblewrap template build has no network for' : "installs into the image's Python, which a bubblewrap template cannot (its rootfs is shared and read-only)";
    throw new EngineError('config-invalid', `${origin}: setup step \`${built.label}\` ${why}: use --sandbox docker, or image.packages for Debian packages`);
  });
}

async function runSetup(repo: ResolvedRepo, rootfs: string, repoDir: string, progress: ProgressSink): Promise<void> {
  const commands = bwrapSetupCommands(repo);
  for (const [index, command] of commands.entries()) {
    progress({ stage: 'setup', message: `[${index + 1}/${commands.length}] ${command}`, fraction: index / commands.length });
    const { memoryMb, pids } = limitsOf(repo);
    const args = bwrapArgs({ rootfs, repoDir, cwd: REPO_DIR, env: {}, memoryMb, pids, command });
    const result = await startBwrap(args, { timeoutMs: SETUP_TIMEOUT_MS }).result;
    if (result.exitCode !== 0) {
      const why = result.timedOut ? `timed out after ${SETUP_TIMEOUT_MS / 1000} s` : `exited with ${result.exitCode}`;
      throw new EngineError('image-build-failed', `${repo.id}: setup command "${command}" ${why}; output:\n${result.output.slice(-4000)}`);
    }
  }
  if (commands.length === 0) return;
  progress({ stage: 'setup', message: `${commands.length} setup command(s) done`, fraction: 1 });
  // The rootfs is read-only: only /repo can hold what the commands built (build/lib/, dist/, a tox env).
  const { memoryMb, pids } = limitsOf(repo);
  const scan = await startBwrap(bwrapArgs({ rootfs, repoDir, cwd: REPO_DIR, env: {}, memoryMb, pids, command: copyScanScript({ outside: false }) }), { timeoutMs: SETUP_TIMEOUT_MS }).result;
  const copies = parseCopyScan(scan.output, scan.exitCode, repo.id);
  for (const message of copySummaries(copies)) progress({ stage: 'setup', message });
  refuseCodeCopies(copies, repo.id);
}

async function build(repo: ResolvedRepo, rootfs: { dir: string; hash: string }, dir: string, progress: ProgressSink): Promise<void> {
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    progress({ stage: 'clone', message: `cloning ${repo.location} at ${repo.commit.slice(0, 12)}` });
    await cloneAtCommit(repo.location, repo.commit, join(tmp, TEMPLATE_REPO));
    await runSetup(repo, rootfs.dir, join(tmp, TEMPLATE_REPO), progress);
    const manifest: BwrapTemplateManifest = {
      version: 1,
      repoId: repo.id,
      location: repo.location,
      commit: repo.commit,
      setup: bwrapSetupCommands(repo),
      rootfs,
      builtAt: new Date().toISOString(),
    };
    await writeFile(join(tmp, TEMPLATE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // Publish atomically: a template directory that exists is complete.
    await rename(tmp, dir);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Prepare (once per machine; idempotent and safe to call concurrently, across processes too) the
 * bwrap template of a repo: the base rootfs, plus `$SSR_HOME/bwrap/<id>-<hash>/repo`, a private
 * clone at the pinned commit on branch `main` with the recipe's `setup` commands already run in
 * the sandbox (rootfs read-only, no network). The template's `ref` is that directory.
 */
export async function prepareBwrapTemplate(repo: ResolvedRepo, progress: ProgressSink): Promise<SandboxTemplate> {
  bwrapSetupCommands(repo);
  await probeBwrap();
  const rootfs = await ensureBaseRootfs(repo.image, progress);
  const dir = join(bwrapTemplatesDir(), `${repo.id}-${templateHash(repo, rootfs.hash)}`);
  if (!existsSync(dir)) {
    await withFileLock(
      `${dir}.lock`,
      async () => {
        if (!existsSync(dir)) await build(repo, rootfs, dir, progress);
      },
      () => progress({ stage: 'setup', message: `waiting for another process building ${dir}` }),
    );
  }
  await readTemplateManifest(dir);
  progress({ stage: 'setup', message: `bwrap template ${dir} ready`, fraction: 1 });
  return { backend: 'bwrap', repoId: repo.id, ref: dir, limits: limitsOf(repo) };
}
