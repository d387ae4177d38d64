import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { DEBIAN_PYTHON_BASE } from '../../config/repos-schema.js';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { ProgressSink } from '../../util/progress.js';
import { EngineError } from '../../util/engine-error.js';
import { ssrPath } from '../../util/ssr-home.js';
import { cloneAtCommit } from '../images/clone-at-commit.js';
import { withFileLock } from '../images/file-lock.js';
import { REPO_DIR } from '../sandbox.js';
import { baseImageTag, ensureBaseImage } from './base-image.js';
import { dockerError, imageExists } from './docker-client.js';
import { giveRepoToTestUser, removeCodeCopies, runSetup } from './run-setup.js';
import { finishUserBase, prepareUserBase, userBaseId } from './user-base.js';
import { packageIndexAccess, type PackageIndexAccess } from '../images/package-index.js';
import { tarDirectory } from './tar.js';
import { hasNpmStep } from '../images/setup-step.js';

/** Bump when the build steps below change, so every repo image built by older steps is rebuilt (3: /repo owned by the test user). */
export const REPO_IMAGE_VERSION = 3;

/** What the repo image starts from: ssr's base image tag, or the user's `image.base` (by id once known). */
function baseIdentity(repo: ResolvedRepo, userBase?: string): string {
  return repo.image.base === DEBIAN_PYTHON_BASE ? baseImageTag(repo.image) : (userBase ?? repo.image.base);
}

/**
 * `ssr-repo-<id>:<hash12>`; the hash covers everything the image is built from: the base (for a
 * user's `image.base`, its image id when given), the commit and the setup steps. Not where the
 * repo was cloned from: the commit names its tree and history, so every clone and worktree of a
 * repo shares one image instead of building (and keeping) its own. The package index the steps
 * install from is deliberately not part of it either (like the Debian mirror). A repo with an
 * `imageScope` (an image its builder removes when done) gets a tag of its own.
 */
export function repoImageTag(repo: ResolvedRepo, userBaseId?: string): string {
  const canonical = JSON.stringify({
    base: baseIdentity(repo, userBaseId),
    commit: repo.commit,
    setup: repo.image.setup,
    packages: [...repo.image.packages].sort(),
    version: REPO_IMAGE_VERSION,
    ...(repo.imageScope === undefined ? {} : { scope: repo.imageScope }),
  });
  return `ssr-repo-${repo.id}:${createHash('sha256').update(canonical).digest('hex').slice(0, 12)}`;
}

/**
 * Steps that install packages reach the host's package index; an npm step reaches the npm
 * registry, so the host network; the others run with no network. Only the build container has
 * it: the committed image's sandboxes start with `--network none` like every other.
 */
function buildHostConfig(repo: ResolvedRepo, index: PackageIndexAccess): Docker.HostConfig {
  const installs = repo.image.setup.some((step) => typeof step !== 'string');
  if (!installs) return { NetworkMode: 'none' };
  return { NetworkMode: hasNpmStep(repo.image.setup) ? 'host' : index.network, Binds: index.binds };
}

/**
 * The tag `ensureRepoImage` would give the repo now, without building or pulling anything
 * (`ssr doctor`). A user's `image.base` must already be on the machine for its id to be known.
 */
export async function currentRepoImageTag(docker: Docker, repo: ResolvedRepo): Promise<string> {
  if (repo.image.base === DEBIAN_PYTHON_BASE) return repoImageTag(repo);
  const image = await docker.getImage(repo.image.base).inspect().catch((error: unknown) => {
    throw new EngineError('config-invalid', `image.base ${repo.image.base} is not on this machine (${(error as Error).message.split('\n')[0]}): ssr build-image --repo ${repo.id} pulls it, or build / load it first`);
  });
  return repoImageTag(repo, image.Id);
}

async function build(docker: Docker, repo: ResolvedRepo, base: string, tag: string, progress: ProgressSink): Promise<void> {
  const workdir = await mkdtemp(join(tmpdir(), `ssr-clone-${repo.id}-`));
  const userBase = repo.image.base === DEBIAN_PYTHON_BASE ? undefined : repo.image.base;
  const index = packageIndexAccess();
  let container: Docker.Container | undefined;
  try {
    progress({ stage: 'clone', message: `${repo.location} at ${repo.commit.slice(0, 12)}` });
    const clone = join(workdir, 'repo');
    await cloneAtCommit(repo.location, repo.commit, clone);
    if (repo.image.setup.some((step) => typeof step === 'object' && !('npm' in step))) progress({ stage: 'setup', message: index.summary });
    if (hasNpmStep(repo.image.setup)) progress({ stage: 'setup', message: 'npm steps reach the npm registry over the host network (npm_config_* and proxy variables passed)' });
    container = await docker.createContainer({
      Image: base,
      Entrypoint: [],
      Cmd: ['sleep', 'infinity'],
      WorkingDir: REPO_DIR,
      HostConfig: buildHostConfig(repo, index),
    });
    await container.start();
    if (userBase) await prepareUserBase(container, userBase);
    await container.putArchive(tarDirectory(clone), { path: REPO_DIR });
    await runSetup(container, repo, index, progress);
    if (userBase) await finishUserBase(container, userBase);
    await removeCodeCopies(container, repo, progress);
    await giveRepoToTestUser(container, repo);
    progress({ stage: 'commit', message: `committing ${tag}` });
    const [name, version] = tag.split(':') as [string, string];
    await container.commit({
      _query: { container: container.id, repo: name, tag: version, comment: `ssr repo image of ${repo.id}` },
      _body: {
        Entrypoint: [],
        Cmd: ['sleep', 'infinity'],
        WorkingDir: REPO_DIR,
        Labels: { 'ssr.repo': repo.id, 'ssr.commit': repo.commit, 'ssr.recipe': JSON.stringify(repo.image) },
      },
    });
  } catch (error) {
    if (error instanceof EngineError) throw error;
    const failure = dockerError(`building ${tag}`, error);
    throw failure.code === 'docker-unavailable' ? failure : new EngineError('image-build-failed', failure.message, { retryable: true, cause: error });
  } finally {
    await container?.remove({ force: true }).catch(() => undefined);
    await rm(workdir, { recursive: true, force: true });
  }
}

/**
 * The image a repo's sandboxes start from: the base image (ssr's Debian one, or the user's
 * `image.base` checked for what a sandbox needs) plus the repo at its pinned commit in /repo (full
 * history, branch `main`, no remotes) and the recipe's setup steps run.
 * Idempotent: an existing tag is reused; concurrent builders of one tag build it once.
 */
export async function ensureRepoImage(docker: Docker, repo: ResolvedRepo, progress: ProgressSink): Promise<string> {
  const userBaseImage = repo.image.base === DEBIAN_PYTHON_BASE ? undefined : await userBaseId(docker, repo.image.base);
  const tag = repoImageTag(repo, userBaseImage);
  if (await imageExists(docker, tag)) return tag;
  const base = userBaseImage ?? (await ensureBaseImage(docker, repo.image, progress));
  await withFileLock(
    ssrPath('locks', `${tag.replace(/[^a-z0-9.-]/gi, '_')}.lock`),
    async () => {
      if (!(await imageExists(docker, tag))) await build(docker, repo, base, tag, progress);
    },
    () => progress({ stage: 'wait', message: `another process is building ${tag}` }),
  );
  progress({ stage: 'commit', message: `${tag} ready`, fraction: 1 });
  return tag;
}
