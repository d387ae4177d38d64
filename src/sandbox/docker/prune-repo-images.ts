import type Docker from 'dockerode';
import type { PruneResult } from '../prune-result.js';
import { dockerError, dockerStatus } from './docker-client.js';

/** The image repository every tag of a repo's sandbox images shares (see `repoImageTag`). */
export function repoImageName(repoId: string): string {
  return `ssr-repo-${repoId}`;
}

/** Tags of `repoId`'s sandbox images other than `keepTag` (what `pruneRepoImages` would look at). */
export async function staleRepoImageTags(docker: Docker, repoId: string, keepTag: string): Promise<string[]> {
  const name = repoImageName(repoId);
  const images = await docker.listImages({ filters: { reference: [name] } }).catch((error: unknown) => {
    throw dockerError(`list images of ${name}`, error);
  });
  return images.flatMap((image) => image.RepoTags ?? []).filter(staleTagOf(name, keepTag)).sort();
}

/** A tag of image repository `name` other than `keepTag` (not one of another repo sharing a prefix). */
function staleTagOf(name: string, keepTag: string): (tag: string) => boolean {
  return (tag) => tag.slice(0, tag.lastIndexOf(':')) === name && tag !== keepTag;
}

/**
 * Remove the tags of `repoId`'s sandbox images other than `keepTag`: images built for an older
 * commit, recipe or build version, which nothing will start again. An image that also carries a
 * tag we keep is only untagged. An image whose every tag is stale but which a container (running
 * or stopped) was created from is kept, and said so. Layers are freed once no other image uses
 * them (the base image stays).
 */
export function pruneRepoImages(docker: Docker, repoId: string, keepTag: string): Promise<PruneResult> {
  return removeRepoImages(docker, repoId, staleTagOf(repoImageName(repoId), keepTag));
}

/**
 * Remove the tags of `repoId`'s sandbox images that `isTarget` picks, as {@link pruneRepoImages}
 * does: an image that also carries another tag is only untagged, and one a container was created
 * from is kept, and said so.
 */
export async function removeRepoImages(docker: Docker, repoId: string, isTarget: (tag: string) => boolean): Promise<PruneResult> {
  const name = repoImageName(repoId);
  const [images, containers] = await Promise.all([
    docker.listImages({ filters: { reference: [name] } }),
    docker.listContainers({ all: true }),
  ]).catch((error: unknown) => {
    throw dockerError(`list images of ${name}`, error);
  });
  const result: PruneResult = { removed: [], kept: [] };
  for (const image of [...images].sort((a, b) => a.Id.localeCompare(b.Id))) {
    const tags = image.RepoTags ?? [];
    const targets = tags.filter(isTarget).sort();
    const users = containers.filter((container) => container.ImageID === image.Id);
    if (targets.length === tags.length && users.length > 0) {
      const reason = `used by ${users.length} container(s): ${users.map((c) => c.Id.slice(0, 12)).join(', ')}`;
      result.kept.push(...targets.map((ref) => ({ ref, reason })));
      continue;
    }
    for (const tag of targets) {
      try {
        await docker.getImage(tag).remove();
        result.removed.push(tag);
      } catch (error) {
        if (dockerStatus(error) === 404) continue; // removed meanwhile by someone else
        if (dockerStatus(error) === 409) result.kept.push({ ref: tag, reason: 'in use (the engine refused to remove it)' });
        else throw dockerError(`remove image ${tag}`, error);
      }
    }
  }
  result.removed.sort();
  return result;
}
