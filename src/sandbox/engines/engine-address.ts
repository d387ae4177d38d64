import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { EngineError, errorMessage } from '../../util/engine-error.js';

/**
 * One Docker engine to run sandboxes on, as given by `--docker-host` or `SSR_DOCKER_HOSTS`:
 * `unix:///path/docker.sock`, `tcp://host:2375` (plain), `tcp://host:2376?certs=/dir` (TLS: the
 * dir holds ca.pem, cert.pem and key.pem, as Docker's own DOCKER_CERT_PATH does), or
 * `ssh://[user@]host[:port]` (the remote `docker system dial-stdio`, keys from the ssh agent).
 */
export interface EngineAddress {
  /** The URL as given, minus the query: how messages and `ssr doctor` name the engine. */
  readonly name: string;
  readonly kind: 'unix' | 'tcp' | 'tls' | 'ssh';
  /** The TLS cert dir (`certs=`), for messages about a wrong certificate. */
  readonly certDir?: string;
  /** What dockerode is constructed with. */
  readonly options: Docker.DockerOptions;
}

const FORMS = 'unix:///path/docker.sock, tcp://host:port, tcp://host:port?certs=/dir (TLS) or ssh://user@host';

/** Where an engine URL came from, for messages: the flag, or the environment variable. */
export type AddressSource = '--docker-host' | 'SSR_DOCKER_HOSTS';

function usage(url: string, why: string, source: AddressSource): EngineError {
  return new EngineError('usage', `${source} ${url}: ${why} (expected ${FORMS})`);
}

function readCert(url: string, dir: string, file: string, source: AddressSource): Buffer {
  try {
    return readFileSync(join(dir, file));
  } catch (error) {
    throw usage(url, `cannot read ${file} in the cert dir ${dir}: ${errorMessage(error)}; put the engine's ca.pem, cert.pem and key.pem there`, source);
  }
}

function tcpAddress(url: string, parsed: URL, source: AddressSource): EngineAddress {
  const port = parsed.port === '' ? undefined : Number(parsed.port);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const certDir = parsed.searchParams.get('certs');
  const unknown = [...parsed.searchParams.keys()].filter((key) => key !== 'certs');
  if (unknown.length > 0) throw usage(url, `unknown option ${unknown.join(', ')} (only certs=/dir is known)`, source);
  const name = `tcp://${parsed.host}`;
  if (certDir === null) return { name, kind: 'tcp', options: { host, port: port ?? 2375, protocol: 'http' } };
  if (certDir === '') throw usage(url, 'certs= needs the cert dir', source);
  return {
    name, kind: 'tls', certDir,
    options: { host, port: port ?? 2376, protocol: 'https', ca: readCert(url, certDir, 'ca.pem', source), cert: readCert(url, certDir, 'cert.pem', source), key: readCert(url, certDir, 'key.pem', source) },
  };
}

/** Parse one engine URL. @throws EngineError `usage` naming the URL and the forms it may take. */
export function parseEngineAddress(url: string, source: AddressSource = '--docker-host'): EngineAddress {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw usage(trimmed, 'not a URL', source);
  }
  switch (parsed.protocol) {
    case 'unix:':
      if (parsed.pathname === '' || parsed.pathname === '/') throw usage(trimmed, 'no socket path', source);
      return { name: `unix://${parsed.pathname}`, kind: 'unix', options: { socketPath: parsed.pathname } };
    case 'tcp:':
      if (parsed.hostname === '') throw usage(trimmed, 'no host', source);
      return tcpAddress(trimmed, parsed, source);
    case 'ssh:': {
      if (parsed.hostname === '') throw usage(trimmed, 'no host', source);
      const username = decodeURIComponent(parsed.username) || undefined;
      const sshOptions = process.env['SSH_AUTH_SOCK'] ? { agent: process.env['SSH_AUTH_SOCK'] } : {};
      return {
        name: `ssh://${parsed.username ? `${parsed.username}@` : ''}${parsed.host}`,
        kind: 'ssh',
        options: { protocol: 'ssh', host: parsed.hostname, port: parsed.port === '' ? 22 : Number(parsed.port), ...(username ? { username } : {}), sshOptions },
      };
    }
    default:
      throw usage(trimmed, `unknown scheme ${parsed.protocol}`, source);
  }
}

/**
 * The engines of a command: every `--docker-host` flag, else `SSR_DOCKER_HOSTS` (comma separated),
 * else none (the one engine DOCKER_HOST names, as before). The same engine twice is refused: it
 * would be counted as two and given twice its slots.
 */
export function engineAddresses(flags: readonly string[] | undefined, env: NodeJS.ProcessEnv = process.env): EngineAddress[] {
  const fromFlags = flags !== undefined && flags.length > 0;
  const given = fromFlags ? [...flags] : (env['SSR_DOCKER_HOSTS'] ?? '').split(',').map((url) => url.trim()).filter((url) => url !== '');
  const addresses = given.map((url) => parseEngineAddress(url, fromFlags ? '--docker-host' : 'SSR_DOCKER_HOSTS'));
  const seen = new Set<string>();
  for (const address of addresses) {
    if (seen.has(address.name)) throw new EngineError('usage', `${fromFlags ? '--docker-host' : 'SSR_DOCKER_HOSTS'}: ${address.name} is given twice; name each engine once`);
    seen.add(address.name);
  }
  return addresses;
}
