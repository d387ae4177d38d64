import { removeBwrapTemplates } from './bwrap/prune-templates.js';
import { bwrapTemplatesDir } from './bwrap/bwrap-template.js';
import { dockerClient } from './docker/docker-client.js';
import { removeRepoImages } from './docker/prune-repo-images.js';
import type { PruneResult } from './prune-result.js';
import type { SandboxTemplate } from './sandbox.js';

/**
 * Remove one template's image (or bwrap directory) once nothing will start it again, e.g. the
 * image `ssr mine` built for a commit it has judged. The counterpart of pruneStaleTemplates (which
 * removes every one but the current): an image a container still uses, or a template being built,
 * is kept, and said so.
 */
export function removeTemplate(template: SandboxTemplate): Promise<PruneResult> {
  if (template.backend === 'bwrap') return removeBwrapTemplates(bwrapTemplatesDir(), template.repoId, (dir) => dir === template.ref);
  // A k8s template's local image is Docker's, tagged as the last part of the cluster's name.
  const tag = template.backend === 'k8s' ? template.ref.slice(template.ref.lastIndexOf('/') + 1) : template.ref;
  return removeRepoImages(dockerClient(), template.repoId, (candidate) => candidate === tag);
}
