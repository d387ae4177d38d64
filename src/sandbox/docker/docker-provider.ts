import type Docker from 'dockerode';
import { EngineError } from '../../util/engine-error.js';
import { SANDBOX_INIT } from '../exec-scripts.js';
import { REPO_DIR, type Sandbox, type SandboxProvider, type SandboxTemplate } from '../sandbox.js';
import { dockerClient, dockerError, dockerStatus } from './docker-client.js';
import { DockerSandbox } from './docker-sandbox.js';
import { OWNER_LABEL, ownerLabelValue, removeOrphanSandboxes } from './orphan-sweep.js';

/** Label on every sandbox container, so leftovers of a crashed run can be found and removed. */
export const SANDBOX_LABEL = 'ssr.sandbox';

/**
 * Container options of a sandbox: no network but loopback, no mounts, the template's limits.
 * `NetworkMode: 'none'` alone isolates it; `NetworkDisabled` must stay unset: with it Docker
 * leaves /etc/hosts empty, so `localhost` does not resolve (dev servers such as Vite's die with
 * EAI_AGAIN) although loopback works.
 */
export function sandboxContainerOptions(template: SandboxTemplate): Docker.ContainerCreateOptions {
  const memory = template.limits.memoryMb * 1024 * 1024;
  return {
    Image: template.ref,
    Cmd: SANDBOX_INIT,
    WorkingDir: REPO_DIR,
    Labels: { [SANDBOX_LABEL]: template.repoId, [OWNER_LABEL]: ownerLabelValue() },
    HostConfig: {
      NetworkMode: 'none',
      Memory: memory,
      // Equal to Memory: no swap, so the memory limit really bounds the sandbox.
      MemorySwap: memory,
      NanoCpus: Math.round(template.limits.cpus * 1e9),
      PidsLimit: template.limits.pids,
    },
  };
}

/** Per engine (a run may use several), once per process. */
const orphanSweeps = new WeakMap<Docker, Promise<number>>();

/**
 * The engine's orphan sweep (removeOrphanSandboxes), started at the first call and shared by every
 * later one; never rejects. prepareTemplate starts it beside the image check, so the first
 * sandbox does not wait for its round trip.
 */
export function sweepOrphansOnce(docker: Docker): Promise<number> {
  let swept = orphanSweeps.get(docker);
  if (swept === undefined) orphanSweeps.set(docker, (swept = removeOrphanSandboxes(docker)));
  return swept;
}

/** Sandboxes as Docker containers, one per acquire, created from the template's image. */
export class DockerProvider implements SandboxProvider {
  readonly backend = 'docker' as const;

  constructor(private readonly docker: Docker = dockerClient()) {}

  async acquire(template: SandboxTemplate): Promise<Sandbox> {
    if (template.backend !== 'docker') throw new EngineError('usage', `DockerProvider cannot use a ${template.backend} template`);
    // Once per process: clean up after runs that crashed before disposing their sandboxes.
    await sweepOrphansOnce(this.docker);
    let container: Docker.Container;
    try {
      container = await this.docker.createContainer(sandboxContainerOptions(template));
    } catch (error) {
      if (dockerStatus(error) === 404) {
        throw new EngineError('sandbox-failed', `image ${template.ref} not found; build it with: ssr build-image --repo ${template.repoId}`, { cause: error });
      }
      throw dockerError(`create sandbox from ${template.ref}`, error);
    }
    try {
      await container.start();
    } catch (error) {
      await container.remove({ force: true }).catch(() => undefined);
      throw dockerError(`start sandbox from ${template.ref}`, error);
    }
    return new DockerSandbox(container);
  }
}
