import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A route's answer: a status and a JSON body (or text, sent as is). */
export type FakeAnswer = [status: number, body: unknown];

/** What a fake server saw: `METHOD /path` and the parsed JSON body. */
export interface FakeCall {
  route: string;
  body: unknown;
}

/**
 * A stand-in for a sampler or trainer at the HTTP boundary: `routes` maps `METHOD /path` to an
 * answer (or a function of the request body); anything else is a 404, as a server without the route answers.
 */
export async function fakeServer(routes: Record<string, FakeAnswer | ((body: unknown) => FakeAnswer)>): Promise<{ url: string; calls: FakeCall[]; close(): void }> {
  const calls: FakeCall[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const route = `${request.method} ${request.url}`;
      const body = text === '' ? null : (JSON.parse(text) as unknown);
      calls.push({ route, body });
      const handler = routes[route];
      const [status, answer] = handler === undefined ? [404, { detail: 'Not Found' }] : typeof handler === 'function' ? handler(body) : handler;
      const payload = typeof answer === 'string' ? answer : JSON.stringify(answer);
      response.writeHead(status, { 'content-type': typeof answer === 'string' ? 'text/plain' : 'application/json' }).end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, close: () => server.close() };
}
