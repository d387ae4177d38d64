import type Docker from 'dockerode';
import { EngineError, errorMessage } from '../../util/engine-error.js';
import { dockerode } from '../docker/docker-client.js';
import type { EngineAddress } from './engine-address.js';
import { engineFacts, engineProblems, type EngineFacts } from './engine-info.js';

/** How long an engine gets to answer at start-up before it is called unreachable. */
export const ENGINE_PROBE_TIMEOUT_MS = 5000;

/** An engine that answered and may run sandboxes. */
export interface ProbedEngine {
  address: EngineAddress;
  docker: Docker;
  facts: EngineFacts;
}

function timeout<T>(promise: Promise<T>, ms: number, name: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(Object.assign(new Error(`${name} did not answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms).unref()),
  ]);
}

const TLS_WORDS = /certificate|CERT_|SSL|TLS|self.signed|EPROTO|alert/i;

/**
 * What went wrong reaching an engine, said so that the user knows which engine and what to fix:
 * an unreachable address, a TLS certificate the engine does not accept (or does not match), an
 * ssh login that failed, an ssh host without Docker.
 */
export function unreachableReason(address: EngineAddress, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = `${errorMessage(error)}${code && !errorMessage(error).includes(code) ? ` (${code})` : ''}`;
  const status = (error as { statusCode?: number } | undefined)?.statusCode;
  if (address.kind === 'unix') {
    return `${address.name}: no Docker engine answers on that socket (${message}); start one there (scripts/start-extra-docker, or dockerd -H ${address.name}) or fix the path`;
  }
  if (address.kind === 'ssh') {
    if (/authentication|auth methods|permission denied|publickey/i.test(message)) {
      return `${address.name}: the ssh login failed (${message}); add the key to your ssh agent (ssh-add) and check the user name`;
    }
    if (/ENOTFOUND|ECONNREFUSED|EHOSTUNREACH|ETIMEDOUT|ENETUNREACH/.test(message)) return `${address.name}: the ssh server is unreachable (${message}); check the host name and port`;
    return `${address.name}: ssh works but no Docker engine answered through \`docker system dial-stdio\` (${message}); install Docker on that host and let this user run it (group docker)`;
  }
  if (address.kind === 'tls' && TLS_WORDS.test(message)) {
    return `${address.name}: the TLS handshake failed (${message}); the certificates in ${address.certDir} do not fit that engine: put its ca.pem and a client cert.pem/key.pem signed by that CA there`;
  }
  if (address.kind === 'tcp' && status === 400) {
    return `${address.name}: the engine speaks TLS (${message}); give its cert dir: --docker-host ${address.name}?certs=/path/with/ca.pem,cert.pem,key.pem`;
  }
  return `${address.name}: no Docker engine is reachable there (${message}); check the host and port, and that dockerd listens on them (dockerd -H tcp://0.0.0.0:2376 --tlsverify ...)`;
}

/**
 * Reach an engine and read its facts, at start-up, before any episode runs.
 * @throws EngineError `docker-unavailable` when it does not answer, `sandbox-unavailable` when it
 * answers but cannot run sandboxes as ssr needs (see engineProblems); both name the engine and the fix.
 */
export async function probeEngine(address: EngineAddress, timeoutMs = ENGINE_PROBE_TIMEOUT_MS): Promise<ProbedEngine> {
  const docker = new (dockerode())(address.options);
  let facts: EngineFacts;
  try {
    await timeout(docker.ping(), timeoutMs, address.name);
    facts = await timeout(engineFacts(docker), timeoutMs, address.name);
  } catch (error) {
    throw new EngineError('docker-unavailable', unreachableReason(address, error), { retryable: true, cause: error });
  }
  const problems = engineProblems(facts);
  if (problems.length > 0) throw new EngineError('sandbox-unavailable', `${address.name} is refused: ${problems.join('; ')}`);
  return { address, docker, facts };
}

/**
 * Probe every engine at once. @throws EngineError listing every engine that is unreachable or
 * refused, one line each with its fix (the first one's code), so one start-up names them all.
 */
export async function probeEngines(addresses: readonly EngineAddress[]): Promise<ProbedEngine[]> {
  const probes = await Promise.allSettled(addresses.map((address) => probeEngine(address)));
  const failed = probes.flatMap((probe) => (probe.status === 'rejected' ? [probe.reason as unknown] : []));
  if (failed.length === 0) return probes.map((probe) => (probe as PromiseFulfilledResult<ProbedEngine>).value);
  const code = failed[0] instanceof EngineError ? failed[0].code : 'docker-unavailable';
  throw new EngineError(code, failed.map((error) => errorMessage(error)).join('\n'), { retryable: code === 'docker-unavailable' });
}
