import type Docker from 'dockerode';
import { limitsSchema } from '../../config/repos-schema.js';
import { errorMessage } from '../../util/engine-error.js';
import { dockerClient } from './docker-client.js';
import { DockerProvider } from './docker-provider.js';

export interface EngineInfo {
  version: string;
  storageDriver: string;
  cgroupVersion: string;
}

/** Version and storage driver of the engine (call only once it answered a ping). */
export async function engineInfo(docker: Docker = dockerClient()): Promise<EngineInfo> {
  const info = (await docker.info()) as { ServerVersion?: string; Driver?: string; CgroupVersion?: string };
  return { version: info.ServerVersion ?? '?', storageDriver: info.Driver ?? '?', cgroupVersion: info.CgroupVersion ?? '?' };
}

const VERSIONS = `python3 -c "import sys, pytest, coverage; print(sys.version.split()[0], pytest.__version__, coverage.__version__)"`;

/**
 * Python, pytest and coverage versions inside an image, from a throwaway sandbox of it (which
 * also proves that sandboxes can be created from it).
 */
export async function pythonVersionsIn(image: string): Promise<{ python: string; pytest: string; coverage: string }> {
  const limits = limitsSchema.parse({});
  const sandbox = await new DockerProvider().acquire({
    backend: 'docker',
    repoId: 'doctor',
    ref: image,
    limits: { memoryMb: limits.memory_mb, cpus: limits.cpus, pids: limits.pids },
  });
  try {
    const result = await sandbox.exec(VERSIONS, { timeoutMs: 60_000 });
    const [python, pytest, coverage] = result.output.trim().split(' ');
    if (result.exitCode !== 0 || !python || !pytest || !coverage) {
      throw new Error(`\`${VERSIONS}\` exited with ${result.exitCode ?? 'timeout'}: ${result.output.trim().slice(-500)}`);
    }
    return { python, pytest, coverage };
  } catch (error) {
    throw new Error(`in ${image}: ${errorMessage(error)}`, { cause: error });
  } finally {
    await sandbox.dispose();
  }
}
