import { createServer, type Server } from 'node:http';

/** What `docker info` of a healthy engine says, as far as ssr reads it. */
export const HEALTHY_INFO = {
  ServerVersion: '24.0.7', Driver: 'overlay2', CgroupVersion: '2', CgroupDriver: 'systemd', NCPU: 4, MemTotal: 16 * 1024 ** 3, MemoryLimit: true, PidsLimit: true, CpuCfsQuota: true,
};

export interface FakeEngine {
  server: Server;
  /** tcp://127.0.0.1:<port> */
  url: string;
  /** While false, every call gets 503: the engine's API is gone. */
  state: { answering: boolean };
  /** `METHOD /path` of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A stand-in Docker engine on 127.0.0.1 (a real HTTP server) answering /_ping and /info as dockerd
 * does, with `info` as its facts: the boundary where ssr probes engines, without a second dockerd.
 */
export async function fakeEngine(info: Record<string, unknown> = HEALTHY_INFO): Promise<FakeEngine> {
  const state = { answering: true };
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (!state.answering) return void response.writeHead(503).end('down');
    if (request.url?.endsWith('/_ping')) return void response.end('OK');
    if (request.url?.endsWith('/info')) return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(info));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `tcp://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { server, url, state, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
