import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postTrainStep, trainerVersion } from '../../../src/training/trainer-client.js';

/** A stand-in for the trainer service (trainer/ssr_trainer/service.py): the boundary is HTTP. */
function fakeTrainer(state: { version: number; failWith?: number }): Promise<{ url: string; server: Server; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const send = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (request.url === '/health') return send(200, { status: 'ok', policy_version: state.version });
      const body = JSON.parse(text) as { samples: unknown[]; expected_version?: number };
      bodies.push(body);
      if (state.failWith) return send(state.failWith, { error: { message: 'bad samples' } });
      if (body.expected_version !== undefined && body.expected_version !== state.version) return send(409, { error: { message: 'conflict' } });
      state.version += 1;
      return send(200, { version: state.version, metrics: { loss: 0.25, samples: body.samples.length } });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, bodies })));
}

let server: Server | undefined;
afterEach(() => server?.close());

describe('trainer client', () => {
  it('reads the version, posts a step with the expected version and returns the new one', async () => {
    const fake = await fakeTrainer({ version: 3 });
    server = fake.server;
    expect(await trainerVersion(`${fake.url}/`)).toBe(3);
    expect(await postTrainStep(fake.url, [], 3)).toEqual({ version: 4, metrics: { loss: 0.25, samples: 0 } });
    expect(fake.bodies).toEqual([{ samples: [], expected_version: 3 }]);
  });

  it('takes a 409 with the trainer one version ahead as the step already done (a resumed run)', async () => {
    const fake = await fakeTrainer({ version: 5 });
    server = fake.server;
    expect(await postTrainStep(fake.url, [], 4)).toEqual({ version: 5, metrics: { alreadyApplied: true } });
  });

  it.each([
    ['a refused step', { version: 0, failWith: 400 }, 0, /the trainer refused the step: HTTP 400/],
    ['a trainer far ahead', { version: 7 }, 4, /HTTP 409/],
  ])('%s is a policy-unavailable error', async (_name, state, expected, message) => {
    const fake = await fakeTrainer(state);
    server = fake.server;
    await expect(postTrainStep(fake.url, [], expected)).rejects.toMatchObject({ code: 'policy-unavailable', message: expect.stringMatching(message) });
  });

  it('a trainer that is not there is policy-unavailable', async () => {
    await expect(trainerVersion('http://127.0.0.1:1')).rejects.toMatchObject({ code: 'policy-unavailable' });
  });
});
