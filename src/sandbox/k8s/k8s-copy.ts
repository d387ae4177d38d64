import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { EngineError } from '../../util/engine-error.js';
import { packFile, readSingleFile } from '../docker/tar.js';
import type { K8sCluster } from './k8s-cluster.js';
import { streamExec } from './stream-exec.js';

/** A copy is one small exec; far longer than this means the API server or the node is stuck. */
const COPY_TIMEOUT_MS = 120_000;

/** `head -c N` ends tar's input after exactly the archive: stdin itself is never closed (see streamExec). */
const UNPACK = 'mkdir -p -- "$1" && head -c "$2" | tar -xf - -C "$1"';
/** Exit 3: missing; 4: a directory. Anything else tar writes to stdout, its complaints to stderr. */
const PACK = 'if [ ! -e "$1" ] && [ ! -L "$1" ]; then exit 3; fi; if [ -d "$1" ]; then exit 4; fi; exec tar -cf - -C "$2" -- "$3"';

async function run(cluster: K8sCluster, podName: string, argv: string[], stdin?: Buffer): Promise<{ exitCode: number | null; stdout: Buffer; stderr: string }> {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), COPY_TIMEOUT_MS);
  try {
    const outcome = await streamExec(cluster, podName, {
      argv,
      onOutput: (chunk, channel) => (channel === 'stdout' ? stdout : stderr).push(chunk),
      signal: controller.signal,
      ...(stdin === undefined ? {} : { stdin }),
    });
    const exitCode = outcome.status === 'exited' ? outcome.exitCode : null;
    return { exitCode, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8').trim() };
  } finally {
    clearTimeout(timer);
  }
}

/** Write one file into the pod as a one-entry tar over exec; parents are created. */
export async function copyIntoPod(cluster: K8sCluster, podName: string, target: string, content: Buffer, mode: number): Promise<void> {
  const archive = await packFile(posix.basename(target), content, mode);
  const result = await run(cluster, podName, ['bash', '-c', UNPACK, 'ssr-copy-in', posix.dirname(target), String(archive.length)], archive);
  if (result.exitCode !== 0) {
    const why = result.exitCode === null ? 'the exec ended without an exit status' : `exit ${result.exitCode}: ${result.stderr}`;
    throw new EngineError('sandbox-failed', `writeFile ${target} in pod ${podName}: ${why}`, { retryable: result.exitCode === null });
  }
}

/** Read one regular file out of the pod as a tar over exec. */
export async function copyOutOfPod(cluster: K8sCluster, podName: string, target: string): Promise<Buffer> {
  const result = await run(cluster, podName, ['bash', '-c', PACK, 'ssr-copy-out', target, posix.dirname(target), posix.basename(target)]);
  if (result.exitCode === 3) throw new EngineError('sandbox-failed', `readFile: no such file in sandbox ${podName}: ${target}`);
  if (result.exitCode === 4) throw new EngineError('sandbox-failed', `readFile: ${target} is a directory, not a regular file`);
  if (result.exitCode !== 0) {
    const why = result.exitCode === null ? 'the exec ended without an exit status' : `tar exited with ${result.exitCode}: ${result.stderr}`;
    throw new EngineError('sandbox-failed', `readFile ${target} in pod ${podName}: ${why}`, { retryable: result.exitCode === null });
  }
  try {
    return await readSingleFile(Readable.from([result.stdout]), target);
  } catch (error) {
    throw new EngineError('sandbox-failed', `readFile: ${(error as Error).message}`, { cause: error });
  }
}
