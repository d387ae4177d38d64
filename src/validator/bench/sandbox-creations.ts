import { hostname } from 'node:os';
import { dockerClient } from '../../sandbox/docker/docker-client.js';
import { OWNER_LABEL } from '../../sandbox/docker/orphan-sweep.js';
import { SANDBOX_LABEL } from '../../sandbox/docker/docker-provider.js';

/** Sandbox containers created so far, by the pid of the ssr process that owns them. */
export interface CreationWatch {
  /** Containers created by process `pid` of this host since the watch began. */
  of(pid: number): number;
  stop(): void;
}

/**
 * Counts the sandbox containers each ssr process creates, from the engine's event stream (every
 * sandbox carries its owner's `<hostname>:<pid>` label): a figure of the sandbox lifecycle that
 * does not depend on the machine's load. The events of other users' processes are ignored.
 */
export async function watchSandboxCreations(): Promise<CreationWatch> {
  const counts = new Map<string, number>();
  const stream = (await dockerClient().getEvents({ filters: { type: ['container'], event: ['create'], label: [SANDBOX_LABEL] } })) as NodeJS.ReadableStream & { destroy(): void };
  let buffered = '';
  stream.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      const owner = (JSON.parse(line) as { Actor?: { Attributes?: Record<string, string> } }).Actor?.Attributes?.[OWNER_LABEL];
      if (owner !== undefined) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
  });
  stream.on('error', () => undefined);
  return {
    of: (pid) => counts.get(`${hostname()}:${pid}`) ?? 0,
    stop: () => stream.destroy(),
  };
}
