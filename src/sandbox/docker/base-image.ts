import type Docker from 'dockerode';
import type { ImageRecipe } from '../../config/repos-schema.js';
import type { ProgressSink } from '../../util/progress.js';
import { EngineError } from '../../util/engine-error.js';
import { ssrPath } from '../../util/ssr-home.js';
import { baseRootfsHash, ensureBaseRootfs } from '../images/base-rootfs.js';
import { withFileLock } from '../images/file-lock.js';
import { dockerError, imageExists } from './docker-client.js';
import { tarDirectory } from './tar.js';

/** Tag of the base image of a recipe; the same hash as its rootfs directory. */
export function baseImageTag(recipe: ImageRecipe): string {
  return `ssr-base:${baseRootfsHash(recipe)}`;
}

/** Wait for a streamed daemon operation (pull/import/build) and surface an error reported inside the stream. */
export function followProgress(docker: Docker, stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(stream, (error: Error | null, events: Array<{ error?: string }>) => {
      const failed = events?.find((event) => event.error !== undefined);
      if (error) reject(error);
      else if (failed) reject(new Error(failed.error));
      else resolve();
    });
  });
}

/** Image settings `docker import` cannot take from a bare tarball. */
const IMPORT_CHANGES = [
  'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  'ENV LANG=C.UTF-8',
  'WORKDIR /repo',
  'CMD ["sleep", "infinity"]',
];

async function importRootfs(docker: Docker, dir: string, tag: string, progress: ProgressSink): Promise<void> {
  progress({ stage: 'docker import', message: `importing ${dir} as ${tag}` });
  const [repo, version] = tag.split(':') as [string, string];
  try {
    const stream = await docker.importImage(tarDirectory(dir), { repo, tag: version, changes: IMPORT_CHANGES });
    await followProgress(docker, stream);
  } catch (error) {
    const engineError = dockerError(`docker import of ${dir}`, error);
    throw engineError.code === 'docker-unavailable'
      ? engineError
      : new EngineError('image-build-failed', engineError.message, { retryable: true, cause: error });
  }
}

/**
 * `ssr-base:<hash>`: the base rootfs imported as a Docker image (built first if needed).
 * Idempotent: an existing tag is reused as is.
 */
export async function ensureBaseImage(docker: Docker, recipe: ImageRecipe, progress: ProgressSink): Promise<string> {
  const tag = baseImageTag(recipe);
  if (await imageExists(docker, tag)) return tag;
  const { dir } = await ensureBaseRootfs(recipe, progress);
  await withFileLock(
    ssrPath('locks', `${tag.replace(/[^a-z0-9.-]/gi, '_')}.lock`),
    async () => {
      if (!(await imageExists(docker, tag))) await importRootfs(docker, dir, tag, progress);
    },
    () => progress({ stage: 'wait', message: `another process is importing ${tag}` }),
  );
  progress({ stage: 'docker import', message: `${tag} ready`, fraction: 1 });
  return tag;
}
