import { hostname } from 'node:os';
import type Docker from 'dockerode';
import { isProcessAlive } from '../../util/process-alive.js';

/** Label naming the process that owns a sandbox container: `<hostname>:<pid>`. */
export const OWNER_LABEL = 'ssr.owner';

export function ownerLabelValue(): string {
  return `${hostname()}:${process.pid}`;
}

/**
 * Remove sandbox containers left by processes of this host that died without disposing them
 * (a crashed run, a killed test worker). Containers of other hosts sharing the engine are left
 * alone: their pids mean nothing here. Best effort; never throws.
 */
export async function removeOrphanSandboxes(docker: Docker): Promise<number> {
  const host = hostname();
  try {
    const containers = await docker.listContainers({ all: true, filters: { label: [OWNER_LABEL] } });
    const orphans = containers.filter((container) => {
      const [ownerHost, pid] = (container.Labels[OWNER_LABEL] ?? '').split(':');
      return ownerHost === host && pid !== undefined && !isProcessAlive(Number(pid));
    });
    await Promise.all(orphans.map((container) => docker.getContainer(container.Id).remove({ force: true }).catch(() => undefined)));
    return orphans.length;
  } catch {
    return 0;
  }
}
