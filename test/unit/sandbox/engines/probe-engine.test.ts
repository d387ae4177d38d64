import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEngineAddress } from '../../../../src/sandbox/engines/engine-address.js';
import { probeEngine } from '../../../../src/sandbox/engines/probe-engine.js';
import { fakeEngine, HEALTHY_INFO } from '../../../helpers/fake-engine.js';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

const GOOD = { ...HEALTHY_INFO, NCPU: 6, MemTotal: 8 * 1024 ** 3 };

/** A CA and a certificate signed by it for `cn` (127.0.0.1 as its IP SAN), as openssl makes them. */
function certificates(dir: string, cn: string): void {
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${cn} CA`, '-keyout', 'ca-key.pem', '-out', 'ca.pem');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${cn}`, '-keyout', 'key.pem', '-out', 'req.csr');
  execFileSync('bash', ['-c', 'printf "subjectAltName=IP:127.0.0.1\\n" > ext.cnf'], { cwd: dir });
  run('x509', '-req', '-in', 'req.csr', '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial', '-days', '1', '-extfile', 'ext.cnf', '-out', 'cert.pem');
}

describe('probeEngine', () => {
  const servers: Server[] = [];
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssr-probe-'));
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('reads an engine\'s facts: version, storage driver, cgroup version, CPUs, memory', async () => {
    const engine = await fakeEngine(GOOD);
    servers.push(engine.server);
    const probed = await probeEngine(parseEngineAddress(engine.url));
    expect(probed.facts).toMatchObject({ version: '24.0.7', storageDriver: 'overlay2', cgroupVersion: '2', cpus: 6, memoryBytes: 8 * 1024 ** 3 });
  });

  it('refuses an engine without overlay or the cgroup controllers, naming it and why', async () => {
    const engine = await fakeEngine({ ...GOOD, Driver: 'vfs', PidsLimit: false });
    servers.push(engine.server);
    const port = engine.url.split(':').pop()!;
    const probe = probeEngine(parseEngineAddress(engine.url));
    await expect(probe).rejects.toMatchObject({ code: 'sandbox-unavailable' });
    await expect(probe).rejects.toThrow(new RegExp(`tcp://127\\.0\\.0\\.1:${port} is refused: storage driver vfs .*; the engine cannot enforce the sandbox limits \\(pids`));
  });

  it('names a unix socket nobody listens on, and how to start an engine there', async () => {
    const probe = probeEngine(parseEngineAddress(`unix://${join(dir, 'none.sock')}`));
    await expect(probe).rejects.toMatchObject({ code: 'docker-unavailable' });
    await expect(probe).rejects.toThrow(/none\.sock: no Docker engine answers on that socket \(.*ENOENT.*\); start one there \(scripts\/start-extra-docker/);
  });

  it('names an unreachable tcp host and port', async () => {
    const server = createHttpServer();
    const port = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    await expect(probeEngine(parseEngineAddress(`tcp://127.0.0.1:${port}`))).rejects.toThrow(
      new RegExp(`tcp://127\\.0\\.0\\.1:${port}: no Docker engine is reachable there \\(.*ECONNREFUSED.*\\); check the host and port`),
    );
  });

  it('says which cert dir does not fit an engine whose TLS certificate it cannot verify', async () => {
    const engineCerts = join(dir, 'engine');
    const wrongCerts = join(dir, 'wrong');
    await mkdir(engineCerts);
    await mkdir(wrongCerts);
    certificates(engineCerts, 'engine');
    certificates(wrongCerts, 'someone else');
    const server = createHttpsServer({ key: await readFile(join(engineCerts, 'key.pem')), cert: await readFile(join(engineCerts, 'cert.pem')) }, (_, response) => response.end('OK'));
    servers.push(server);
    const port = await listen(server);
    const probe = probeEngine(parseEngineAddress(`tcp://127.0.0.1:${port}?certs=${wrongCerts}`));
    await expect(probe).rejects.toMatchObject({ code: 'docker-unavailable' });
    await expect(probe).rejects.toThrow(new RegExp(`tcp://127\\.0\\.0\\.1:${port}: the TLS handshake failed \\(.*\\); the certificates in ${wrongCerts} do not fit that engine`));
  }, 60_000);
});
