import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { WebSocketServer, type ServerSocket } from 'ws';
import { runExec, type ExecCall } from './fake-kubelet.js';
import { selfSignedCertificate } from './self-signed.js';

/** One request as the fake API server saw it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: unknown;
}

const RUNNING: V1PodStatus = { phase: 'Running', containerStatuses: [{ name: 'sandbox', image: '', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: new Date(0) } } }] };

/** A Status body, as the API server writes one for a failed call. */
function status(code: number, reason: string, message: string, details?: object): object {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code, ...(details ? { details } : {}) };
}

/** Does `labels` match an equality selector `k=v,k=v`? */
function matches(labels: Record<string, string> | undefined, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [key, value] = term.split('=');
    return labels?.[key!] === value;
  });
}

/**
 * A Kubernetes API server (HTTPS, its own self-signed certificate) on 127.0.0.1 for the k8s backend's boundary tests: it records every
 * request and answers the calls the backend makes as the real one does (pods, NetworkPolicies,
 * SelfSubjectAccessReviews, the exec upgrade), including 403, 404 and 409 Status bodies. Execs
 * run as real processes on this host (see fake-kubelet.ts). Knobs: `namespaces`, `denied`
 * (`verb resource[/sub]` the user lacks), `forbidPodCreate` (a 403 message), `podStatus`.
 */
export class FakeKubeApi {
  readonly requests: RecordedRequest[] = [];
  readonly execs: ExecCall[] = [];
  readonly pods = new Map<string, V1Pod>();
  readonly policies = new Map<string, { metadata?: { resourceVersion?: string } }>();
  namespaces = new Set(['ssr']);
  denied = new Set<string>();
  forbidPodCreate: string | undefined;
  /** The status a pod reports from creation on. */
  podStatus: (pod: V1Pod) => V1PodStatus = () => RUNNING;
  private readonly server: Server;
  /** The exec subprotocol this server speaks (API servers ≥ 1.30 pick v5, older ones v4). */
  protocol: 'v4.channel.k8s.io' | 'v5.channel.k8s.io' = 'v4.channel.k8s.io';
  private readonly wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has(this.protocol) ? this.protocol : false) });
  private readonly running = new Map<string, { children: ChildProcess[]; sockets: ServerSocket[] }>();

  private readonly cert: Buffer;

  constructor() {
    const { key, cert } = selfSignedCertificate();
    this.cert = cert;
    this.server = createServer({ key, cert }, (request, response) => void this.handle(request, response));
    this.server.on('upgrade', (request: IncomingMessage, socket, head) => this.upgrade(request, socket, head));
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return `https://127.0.0.1:${address.port}`;
  }

  /** Write a kubeconfig pointing at this server, trusting its certificate (contexts `fake`, namespace ssr, and `bare`, none). */
  writeKubeconfig(dir: string, options: { trustServer?: boolean } = {}): string {
    const file = join(dir, 'kubeconfig');
    const ca = options.trustServer === false ? '' : `, certificate-authority-data: ${this.cert.toString('base64')}`;
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: fake, cluster: {server: "${this.url}"${ca}}}]`,
        'users: [{name: tester, user: {token: test-token}}]',
        'contexts: [{name: fake, context: {cluster: fake, user: tester, namespace: ssr}}, {name: bare, context: {cluster: fake, user: tester}}]',
        'current-context: fake',
        '',
      ].join('\n'),
    );
    return file;
  }

  /** `METHOD path` of every request so far (exec upgrades included), in order. */
  calls(): string[] {
    return this.requests.map((request) => `${request.method} ${request.path}`);
  }

  async close(): Promise<void> {
    for (const name of this.running.keys()) this.kill(name);
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private record(request: IncomingMessage, body: unknown): RecordedRequest {
    const url = new URL(request.url ?? '/', 'http://fake');
    const recorded = { method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, authorization: request.headers.authorization, body };
    this.requests.push(recorded);
    return recorded;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const { method, path, query, body } = this.record(request, text === '' ? undefined : JSON.parse(text));
    const reply = (code: number, payload: object): void => {
      response.writeHead(code, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    if (method === 'POST' && path === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews') {
      const attributes = (body as { spec: { resourceAttributes: { verb: string; resource: string; subresource?: string } } }).spec.resourceAttributes;
      const key = `${attributes.verb} ${attributes.resource}${attributes.subresource ? `/${attributes.subresource}` : ''}`;
      return reply(201, { ...(body as object), status: { allowed: !this.denied.has(key) } });
    }
    const match = /^\/(?:api\/v1|apis\/networking\.k8s\.io\/v1)\/namespaces\/([^/]+)\/(pods|networkpolicies)(?:\/([^/]+))?$/.exec(path);
    if (match === null) return reply(404, status(404, 'NotFound', `the server could not find the requested resource (${method} ${path})`));
    const [, namespace, kind, name] = match as unknown as [string, string, 'pods' | 'networkpolicies', string | undefined];
    if (!this.namespaces.has(namespace)) return reply(404, status(404, 'NotFound', `namespaces "${namespace}" not found`, { name: namespace, kind: 'namespaces' }));
    return kind === 'pods' ? this.pod(method, namespace, name, query, body as V1Pod, reply) : this.policy(method, name, body as { metadata: { name: string } }, reply);
  }

  private pod(method: string, namespace: string, name: string | undefined, query: URLSearchParams, body: V1Pod, reply: (code: number, payload: object) => void): void {
    if (method === 'POST' && name === undefined) {
      if (this.forbidPodCreate !== undefined) return reply(403, status(403, 'Forbidden', this.forbidPodCreate, { kind: 'pods' }));
      const created: V1Pod = { ...body, metadata: { ...body.metadata, namespace, uid: `uid-${body.metadata?.name}` } };
      this.pods.set(body.metadata!.name!, created);
      return reply(201, { ...created, status: { phase: 'Pending' } });
    }
    if (method === 'GET' && name === undefined) {
      const items = [...this.pods.values()].filter((pod) => matches(pod.metadata?.labels, query.get('labelSelector')));
      return reply(200, { kind: 'PodList', apiVersion: 'v1', metadata: {}, items });
    }
    const pod = name === undefined ? undefined : this.pods.get(name);
    if (pod === undefined) return reply(404, status(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' }));
    if (method === 'GET') return reply(200, { ...pod, status: this.podStatus(pod) });
    if (method === 'DELETE') {
      this.pods.delete(name!);
      this.kill(name!);
      return reply(200, pod);
    }
    reply(405, status(405, 'MethodNotAllowed', `${method} not allowed`));
  }

  private policy(method: string, name: string | undefined, body: { metadata: { name: string } }, reply: (code: number, payload: object) => void): void {
    if (method === 'POST') {
      if (this.policies.has(body.metadata.name)) return reply(409, status(409, 'AlreadyExists', `networkpolicies.networking.k8s.io "${body.metadata.name}" already exists`));
      this.policies.set(body.metadata.name, { ...body, metadata: { ...body.metadata, resourceVersion: '1' } });
      return reply(201, this.policies.get(body.metadata.name)!);
    }
    const existing = name === undefined ? undefined : this.policies.get(name);
    if (existing === undefined) return reply(404, status(404, 'NotFound', `networkpolicies.networking.k8s.io "${name}" not found`));
    if (method === 'GET') return reply(200, existing);
    if (method === 'PUT') {
      this.policies.set(name!, { ...body, metadata: { ...body.metadata, resourceVersion: String(Number(existing.metadata?.resourceVersion ?? 0) + 1) } });
      return reply(200, this.policies.get(name!)!);
    }
    reply(405, status(405, 'MethodNotAllowed', `${method} not allowed`));
  }

  private upgrade(request: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer): void {
    const recorded = this.record(request, undefined);
    const match = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/.exec(recorded.path);
    const pod = match?.[2];
    if (pod === undefined || !this.pods.has(pod)) {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      const call: ExecCall = { pod, command: recorded.query.getAll('command'), protocol: ws.protocol, stdin: [] };
      this.execs.push(call);
      const entry = this.running.get(pod) ?? { children: [], sockets: [] };
      this.running.set(pod, entry);
      entry.sockets.push(ws);
      entry.children.push(runExec(ws, call));
    });
  }

  /** The pod's container dies: its processes are killed and its exec streams cut without a status. */
  private kill(pod: string): void {
    const entry = this.running.get(pod);
    this.running.delete(pod);
    for (const ws of entry?.sockets ?? []) ws.terminate();
    for (const child of entry?.children ?? []) {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}
