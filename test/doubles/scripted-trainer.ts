import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TrainingSample } from '../../src/rl/training-sample.js';

export interface TrainCall {
  expected_version: number;
  samples: TrainingSample[];
}

export interface ScriptedTrainer {
  url: string;
  server: Server;
  calls: TrainCall[];
  saves: Array<{ path: string; version: number }>;
  /** Set the version (a restart from a checkpoint). */
  version: number;
  close(): Promise<void>;
}

export interface ScriptedTrainerOptions {
  /** How far one train call moves the version (a trainer whose call makes several updates). */
  versionsPerCall?: number;
  /** Resolves when the call may be answered (the test holds a step's training while the next one samples). */
  hold?: (call: TrainCall) => Promise<void>;
}

/**
 * The trainer service's HTTP contract (trainer/README.md: GET /health, POST /train/step with
 * expected_version and its 409, POST /weights/save), scripted: the boundary is faked, the run
 * under test is real.
 */
export function scriptedTrainer(options: ScriptedTrainerOptions = {}): Promise<ScriptedTrainer> {
  const trainer = { calls: [] as TrainCall[], saves: [] as Array<{ path: string; version: number }>, version: 0 } as ScriptedTrainer;
  trainer.server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const send = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (request.method === 'GET' && request.url === '/health') return send(200, { status: 'ok', policy_version: trainer.version });
      if (request.method === 'POST' && request.url === '/weights/save') {
        const saved = { path: `/checkpoints/v${trainer.version}`, version: trainer.version };
        trainer.saves.push(saved);
        return send(200, { ...saved, steps: trainer.version, kind: 'full' });
      }
      if (request.method !== 'POST' || request.url !== '/train/step') return send(404, { error: { message: 'no such route' } });
      const body = JSON.parse(text) as TrainCall;
      trainer.calls.push(body);
      if (body.expected_version !== trainer.version) return send(409, { error: { message: 'version conflict' } });
      void (options.hold?.(body) ?? Promise.resolve()).then(() => {
        trainer.version += options.versionsPerCall ?? 1;
        send(200, { version: trainer.version, metrics: { loss: 0.5, samples: { received: body.samples.length } } });
      });
    });
  });
  trainer.close = () => new Promise((resolve) => trainer.server.close(() => resolve()));
  return new Promise((resolve) =>
    trainer.server.listen(0, '127.0.0.1', () => {
      trainer.url = `http://127.0.0.1:${(trainer.server.address() as AddressInfo).port}`;
      resolve(trainer);
    }),
  );
}
