import { dockerClient } from './docker/docker-client.js';
import type { SandboxTemplate } from './sandbox.js';

/** What a run's sandboxes of one repo start from, as run.json records it. */
export interface TemplateIdentity {
  backend: SandboxTemplate['backend'];
  /** The Docker image tag (a hash of its recipe) or the bwrap template directory. */
  ref: string;
  /** Docker's content id of that image (`sha256:…`); null for bwrap, or when Docker cannot tell. */
  imageId: string | null;
}

/** The image (or template) identity of a prepared template: the tag is a recipe hash, the id what Docker really holds. */
export async function templateIdentity(template: SandboxTemplate): Promise<TemplateIdentity> {
  if (template.backend !== 'docker') return { backend: template.backend, ref: template.ref, imageId: null };
  const imageId = await dockerClient()
    .getImage(template.ref)
    .inspect()
    .then((info) => info.Id)
    .catch(() => null);
  return { backend: template.backend, ref: template.ref, imageId };
}
