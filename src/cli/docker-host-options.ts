import type { Command } from 'commander';
import { engineAddresses, type EngineAddress } from '../sandbox/engines/engine-address.js';
import type { SandboxBackend } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import type { SandboxChoice } from './common-options.js';

/** Flags of {@link addDockerHostOption}. */
export interface DockerHostFlags {
  sandbox: SandboxChoice;
  /** `--docker-host` (repeatable). */
  dockerHost?: string[];
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const DOCKER_HOST_HELP =
  'a Docker engine to run sandboxes on; repeat for several (default: $SSR_DOCKER_HOSTS, comma separated, else DOCKER_HOST): ' +
  'unix:///path.sock, tcp://host:2375, tcp://host:2376?certs=/dir (TLS: ca.pem, cert.pem, key.pem) or ssh://user@host';

/** Adds `--docker-host <url>` (repeatable). */
export function addDockerHostOption(command: Command): Command {
  return command.option('--docker-host <url>', DOCKER_HOST_HELP, collect);
}

/** The engines named by `--docker-host` or SSR_DOCKER_HOSTS (none: the one DOCKER_HOST names). */
export function dockerHostsOf(flags: DockerHostFlags): EngineAddress[] {
  const addresses = engineAddresses(flags.dockerHost);
  if (addresses.length > 0 && flags.sandbox === 'bwrap') throw new EngineError('usage', '--docker-host runs sandboxes on Docker engines; it cannot go with --sandbox bwrap');
  return addresses;
}

/**
 * The backend of a command that runs its sandboxes on one engine. With `--docker-host` (or
 * SSR_DOCKER_HOSTS) every engine named is probed first (a bad one is refused with its fix); the
 * first of them is then the command's engine. Without, `--sandbox` decides (selectBackend).
 */
export async function sandboxBackend(flags: DockerHostFlags): Promise<SandboxBackend> {
  const addresses = dockerHostsOf(flags);
  // Loaded here, not at the top: every command registers --docker-host, and its --help needs none of this.
  if (addresses.length === 0) return (await import('../sandbox/select-backend.js')).selectBackend(flags.sandbox);
  const [{ probeEngines }, { useDockerEngine }] = await Promise.all([import('../sandbox/engines/probe-engine.js'), import('../sandbox/docker/docker-client.js')]);
  const [first] = await probeEngines(addresses);
  useDockerEngine(first!.docker);
  return 'docker';
}
