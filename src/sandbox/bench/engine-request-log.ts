import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One request a client made of the engine, as the proxy saw it. */
export interface EngineRequest {
  /** Date.now() when its request line passed. */
  at: number;
  /** `GET /images/:name/json`: method and path with ids, names and the query folded, so runs compare. */
  kind: string;
}

/** Method and path of a request line, ids and names folded (`POST /containers/:id/exec`). */
export function requestKind(method: string, path: string): string {
  const bare = path.replace(/^\/v[\d.]+/, '').replace(/\?.*$/, '');
  const folded = bare
    .replace(/^\/containers\/(?!create$|json$)[^/]+/, '/containers/:id')
    .replace(/^\/exec\/[^/]+/, '/exec/:id')
    .replace(/^\/images\/.+\/json$/, '/images/:name/json');
  return `${method} ${folded}`;
}

/**
 * A Unix socket that forwards every connection to the engine's socket and logs each request line
 * (a bench's count of engine requests, independent of load). A hijacked stream (exec start,
 * attach) is passed on unread from then on: its bytes are the command's, not requests.
 */
export class EngineRequestLog {
  readonly socket: string;
  requests: EngineRequest[] = [];
  /** Called when a request list that had no `POST /containers/create` gets one (the bench reads the client's CPU then). */
  onFirstCreate?: () => void;
  private readonly server: Server;
  private readonly dir: string;

  constructor(private readonly engineSocket = '/var/run/docker.sock') {
    this.dir = mkdtempSync(join(tmpdir(), 'ssr-engine-log-'));
    this.socket = join(this.dir, 'engine.sock');
    this.server = createServer((client) => {
      const engine = connect(this.engineSocket);
      let hijacked = false;
      client.on('data', (bytes: Buffer) => {
        if (!hijacked) {
          for (const match of bytes.toString('latin1').matchAll(/^(GET|POST|PUT|DELETE|HEAD) (\S+) HTTP\/1\.[01]\r$/gm)) {
            const kind = requestKind(match[1]!, match[2]!);
            if (kind === 'POST /containers/create' && !this.requests.some((request) => request.kind === kind)) this.onFirstCreate?.();
            this.requests.push({ at: Date.now(), kind });
            if (/\/exec\/[^/]+\/start|\/attach/.test(match[2]!)) hijacked = true;
          }
        }
        engine.write(bytes);
      });
      engine.pipe(client);
      for (const [from, to] of [[client, engine], [engine, client]] as const) {
        from.on('error', () => to.destroy());
        from.on('close', () => to.destroy());
      }
    });
  }

  listen(): Promise<void> {
    return new Promise((resolve) => this.server.listen(this.socket, resolve));
  }

  close(): void {
    this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
