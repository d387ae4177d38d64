import type Docker from 'dockerode';
import type { ProgressSink } from '../../util/progress.js';
import { EngineError } from '../../util/engine-error.js';
import { followProgress } from '../docker/base-image.js';
import { dockerError, dockerStatus } from '../docker/docker-client.js';

/** The id (config digest) of an image on an engine; null when the engine has no such tag. */
export async function imageId(docker: Docker, tag: string): Promise<string | null> {
  try {
    return (await docker.getImage(tag).inspect()).Id;
  } catch (error) {
    if (dockerStatus(error) === 404) return null;
    throw dockerError(`inspect image ${tag}`, error);
  }
}

/**
 * Make `tag` present on `target` as the very image `source` has (same id): nothing when it is
 * there already, else `docker save` on the source streamed into `docker load` on the target, no
 * file in between. The id is checked afterwards: a tag that names another image (an older build
 * of the same recipe) would run other code on one engine than on the rest.
 * @returns whether the image was streamed.
 * @throws EngineError `docker-unavailable` / `sandbox-failed` naming both engines.
 */
export async function shareImage(
  source: { name: string; docker: Docker },
  target: { name: string; docker: Docker },
  tag: string,
  progress: ProgressSink,
): Promise<boolean> {
  const wanted = await imageId(source.docker, tag);
  if (wanted === null) throw new EngineError('sandbox-failed', `image ${tag} is not on ${source.name}, so it cannot be copied from there`);
  if ((await imageId(target.docker, tag)) === wanted) return false;
  progress({ stage: 'share image', message: `${tag}: ${source.name} → ${target.name}` });
  try {
    const saved = await source.docker.getImage(tag).get();
    const loading = await target.docker.loadImage(saved, { quiet: true });
    await followProgress(target.docker, loading);
  } catch (error) {
    throw dockerError(`copying ${tag} from ${source.name} to ${target.name}`, error);
  }
  const got = await imageId(target.docker, tag);
  if (got !== wanted) {
    throw new EngineError('sandbox-failed', `copying ${tag} from ${source.name} to ${target.name}: it arrived as ${got ?? 'nothing'}, not ${wanted}`, { retryable: true });
  }
  progress({ stage: 'share image', message: `${tag} on ${target.name}`, fraction: 1 });
  return true;
}
