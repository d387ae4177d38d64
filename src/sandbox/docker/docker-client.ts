import { createRequire } from 'node:module';
import type Docker from 'dockerode';
import { EngineError, errorMessage } from '../../util/engine-error.js';
import { deferRequire, dockerodeDeferredFiles } from './defer-require.js';

let shared: Docker | undefined;

/**
 * dockerode's client class, loaded at its first use: about a tenth of a second of CPU that
 * `ssr <command> --help`, a usage error or a bubblewrap run never needs. Its BuildKit session
 * (gRPC, protobuf) and SSH transport (ssh2), most of that, load only when first called (deferRequire).
 */
export function dockerode(): typeof Docker {
  const require = createRequire(import.meta.url);
  if (require.cache[require.resolve('dockerode')] === undefined) for (const file of dockerodeDeferredFiles()) deferRequire(file);
  return require('dockerode') as typeof Docker;
}

/** One dockerode client per process; honours DOCKER_HOST like the docker CLI, unless {@link useDockerEngine} chose another. */
export function dockerClient(): Docker {
  shared ??= new (dockerode())();
  return shared;
}

/** Make `docker` the process's engine (`--docker-host` of a command that uses one engine). */
export function useDockerEngine(docker: Docker): void {
  shared = docker;
}

/** HTTP status of a dockerode error, if it came from the daemon. */
export function dockerStatus(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

const UNREACHABLE = new Set(['ENOENT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EACCES']);

/**
 * Turn a dockerode failure into an EngineError: an unreachable daemon is `docker-unavailable`,
 * anything else the daemon refused is `sandbox-failed`. Both are retryable (tier 3: the episode is
 * retried or discarded, never scored).
 */
export function dockerError(action: string, error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && UNREACHABLE.has(code)) {
    return new EngineError('docker-unavailable', `${action}: the Docker engine is not reachable (${code}); start it with scripts/setup-host`, {
      retryable: true,
      cause: error,
    });
  }
  return new EngineError('sandbox-failed', `${action}: ${errorMessage(error)}`, { retryable: true, cause: error });
}

/** Whether an image tag exists locally. */
export async function imageExists(docker: Docker, tag: string): Promise<boolean> {
  try {
    await docker.getImage(tag).inspect();
    return true;
  } catch (error) {
    if (dockerStatus(error) === 404) return false;
    throw dockerError(`inspect image ${tag}`, error);
  }
}
