import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageRecipe } from '../../config/repos-schema.js';
import type { ProgressSink } from '../../util/progress.js';
import { EngineError, errorMessage } from '../../util/engine-error.js';
import { ssrPath } from '../../util/ssr-home.js';
import { withFileLock } from './file-lock.js';
import { ensureRootfsHosts } from './rootfs-hosts.js';
import { runProcess } from './run-process.js';
import { hasNpmStep, hasPipStep } from './setup-step.js';

/** Bump when the build steps below change, so every cache built by older steps is rebuilt. */
export const RECIPE_VERSION = 1;
export const DEBIAN_SUITE = 'bookworm';
const DEFAULT_MIRROR = 'http://deb.debian.org/debian';

/** What every sandbox has: Python with pytest and coverage, git, patch and the usual shell tools. */
export const BASE_PACKAGES = [
  'python3', 'python3-pytest', 'python3-coverage', 'git', 'patch', 'procps',
  'coreutils', 'findutils', 'grep', 'sed', 'ca-certificates',
] as const;

const GITCONFIG = `[user]
\tname = ssr
\temail = ssr@localhost
[safe]
\tdirectory = *
[init]
\tdefaultBranch = main
[advice]
\tdetachedHead = false
`;

/** Roughly how many debootstrap "I: <verb> <package>" lines a build prints; only drives the bar. */
const EXPECTED_PACKAGE_LINES = 680;
const PACKAGE_LINE = /^I: (Retrieving|Validating|Extracting|Unpacking|Configuring) [a-z0-9]/;

/** The rootfs's packages: ssr's, the recipe's, pip when a setup step installs with it, Node when one uses npm. */
export function basePackages(recipe: ImageRecipe): string[] {
  const pip = hasPipStep(recipe.setup) ? ['python3-pip'] : [];
  const node = hasNpmStep(recipe.setup) ? ['nodejs'] : [];
  return [...new Set([...BASE_PACKAGES, ...recipe.packages, ...pip, ...node])].sort();
}

/**
 * Packages installed with apt in the finished rootfs rather than by debootstrap: Debian's npm
 * pulls ~200 node-* packages whose configuration order debootstrap's `--include` gets wrong
 * ("Failure while configuring base packages ... possibly the package npm is at fault"); apt
 * orders them right.
 */
export function aptPackages(recipe: ImageRecipe): string[] {
  return hasNpmStep(recipe.setup) ? ['npm'] : [];
}

async function aptInstall(recipe: ImageRecipe, root: string, progress: ProgressSink): Promise<void> {
  const packages = aptPackages(recipe);
  if (packages.length === 0) return;
  progress({ stage: 'debootstrap', message: `apt-get install ${packages.join(' ')}`, fraction: 0.97 });
  const script = `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${packages.join(' ')}`;
  const result = await runProcess('chroot', [root, '/bin/sh', '-c', script]);
  if (result.exitCode !== 0) throw new EngineError('image-build-failed', `apt-get install ${packages.join(' ')} in the base rootfs exited with ${result.exitCode}; its last lines:\n${result.tail}`, { retryable: true });
}

/** Content hash of a base rootfs recipe (12 hex); the mirror is deliberately not part of it. */
export function baseRootfsHash(recipe: ImageRecipe): string {
  const apt = aptPackages(recipe);
  // `apt` only when there is any, so recipes without it keep the hash (and cache) they had.
  const canonical = JSON.stringify({ suite: DEBIAN_SUITE, packages: basePackages(recipe), ...(apt.length > 0 ? { apt } : {}), version: RECIPE_VERSION });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 12);
}

/** Where the rootfs of a recipe lives once built (it may not exist yet). */
export function baseRootfsDir(recipe: ImageRecipe): string {
  return ssrPath('rootfs', baseRootfsHash(recipe));
}

/** Unmount whatever a failed debootstrap left mounted below `dir` before anything deletes it. */
async function unmountBelow(dir: string): Promise<void> {
  const mounts = (await readFile('/proc/self/mounts', 'utf8').catch(() => ''))
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((point) => point.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const point of mounts) await runProcess('umount', ['-l', point]).catch(() => undefined);
}

async function debootstrap(recipe: ImageRecipe, target: string, progress: ProgressSink): Promise<void> {
  const mirror = process.env.SSR_DEBIAN_MIRROR || DEFAULT_MIRROR;
  const args = ['--variant=minbase', `--include=${basePackages(recipe).join(',')}`, DEBIAN_SUITE, target, mirror];
  let seen = 0;
  progress({ stage: 'debootstrap', message: `debootstrap ${DEBIAN_SUITE} from ${mirror}`, fraction: 0 });
  const result = await runProcess('debootstrap', args, {
    onLine: (line) => {
      if (!line.startsWith('I: ')) return;
      if (PACKAGE_LINE.test(line)) seen += 1;
      progress({ stage: 'debootstrap', message: line.slice(3), fraction: Math.min(0.97, seen / EXPECTED_PACKAGE_LINES) });
    },
  }).catch((error: unknown) => {
    throw new EngineError('image-build-failed', `cannot run debootstrap (${errorMessage(error)}): apt-get install debootstrap, or run scripts/setup-host`);
  });
  if (result.exitCode !== 0) {
    throw new EngineError('image-build-failed', `debootstrap exited with ${result.exitCode}; its last lines:\n${result.tail}`, { retryable: true });
  }
}

/** The finishing touches every sandbox relies on, and removal of what only bloats the image. */
async function finish(root: string): Promise<void> {
  await writeFile(join(root, 'etc/gitconfig'), GITCONFIG);
  for (const junk of ['var/cache/apt', 'var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'usr/share/info', 'usr/share/locale', 'var/log']) {
    await rm(join(root, junk), { recursive: true, force: true });
    await mkdir(join(root, junk), { recursive: true });
  }
  await mkdir(join(root, 'repo'), { recursive: true });
  await mkdir(join(root, 'ssr'), { recursive: true });
  await chmod(join(root, 'ssr'), 0o1777);
}

/**
 * The Debian rootfs every sandbox starts from, built once per machine with debootstrap and cached
 * at `$SSR_HOME/rootfs/<hash>`. Concurrent callers (other processes included) build it once; the
 * finished directory appears atomically, so its existence means it is complete. Callers must
 * treat it as read-only.
 */
export async function ensureBaseRootfs(recipe: ImageRecipe, progress: ProgressSink): Promise<{ dir: string; hash: string }> {
  const hash = baseRootfsHash(recipe);
  const dir = baseRootfsDir(recipe);
  if (existsSync(dir)) {
    await ensureRootfsHosts(dir, progress);
    return { dir, hash };
  }
  if (process.getuid?.() !== 0) {
    throw new EngineError('image-build-failed', `building the base rootfs ${dir} needs root (debootstrap); run ssr build-image as root once`);
  }
  await withFileLock(
    `${dir}.lock`,
    async () => {
      if (existsSync(dir)) return;
      const tmp = `${dir}.tmp-${process.pid}`;
      await unmountBelow(tmp);
      await rm(tmp, { recursive: true, force: true });
      try {
        await debootstrap(recipe, tmp, progress);
        await aptInstall(recipe, tmp, progress);
        await finish(tmp);
        await ensureRootfsHosts(tmp, progress);
        await rename(tmp, dir);
        progress({ stage: 'debootstrap', message: `base rootfs ${hash} ready`, fraction: 1 });
      } finally {
        await unmountBelow(tmp);
        await rm(tmp, { recursive: true, force: true });
      }
    },
    () => progress({ stage: 'debootstrap', message: `waiting for another process building ${dir}` }),
  );
  return { dir, hash };
}
