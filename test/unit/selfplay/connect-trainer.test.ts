import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStore } from '../../../src/corpus/run-store.js';
import { connectTrainer } from '../../../src/selfplay/connect-trainer.js';
import { scriptedTrainer, type ScriptedTrainer } from '../../doubles/scripted-trainer.js';
import { TrainingJournal, type Checkpoint } from '../../../src/training/training-journal.js';
import { makeEpisode } from '../corpus/corpus-factory.js';

const at = '2026-01-01T00:00:00Z';
let dir: string;
let store: RunStore;
let trainer: ScriptedTrainer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-connect-trainer-'));
  store = await RunStore.open(dir, { command: 'selfplay', config: {} });
  trainer = await scriptedTrainer();
  // The run sent steps 1–4 at versions 0–3 and checkpointed version 2 after step 2; step 5 had sampled one episode.
  const journal = await TrainingJournal.open(dir);
  for (const step of [1, 2, 3, 4]) await journal.append({ type: 'train', step, expectedVersion: step - 1, samples: 1, at });
  await journal.append({ type: 'checkpoint', step: 2, path: '/ck/v2', version: 2, at });
  await store.recordEpisode(makeEpisode({ id: 's5-minicalc-0', step: 5, policyVersion: 4 }));
});
afterEach(async () => {
  await store.close();
  await trainer.close();
  await rm(dir, { recursive: true, force: true });
});

describe('connectTrainer', () => {
  it('takes a trainer where the run left it, at its version', async () => {
    trainer.version = 4;
    expect((await connectTrainer({ url: trainer.url, store, resume: false, firstUndoneStep: 5 })).version).toBe(4);
  });

  it('refuses a trainer behind the run, naming the checkpoint to restart from; resyncs nothing', async () => {
    trainer.version = 2;
    const resynced: Checkpoint[] = [];
    const connecting = connectTrainer({ url: trainer.url, store, resume: false, firstUndoneStep: 5, onResume: async (checkpoint) => void resynced.push(checkpoint) });
    await expect(connecting).rejects.toThrow(/at policy version 2, but this run already trained up to version 3.*`--resume \/ck\/v2`.*with --resume/);
    expect(resynced).toEqual([]);
  });

  it('--resume: resyncs the sampler to the checkpoint, then records the restart and the episodes sampled by lost weights', async () => {
    trainer.version = 2;
    const resynced: Checkpoint[] = [];
    const connected = await connectTrainer({ url: trainer.url, store, resume: true, firstUndoneStep: 5, onResume: async (checkpoint) => void resynced.push(checkpoint) });
    expect(connected.version).toBe(2);
    expect(resynced).toEqual([{ path: '/ck/v2', version: 2 }]);
    expect((await TrainingJournal.open(dir)).lastResume()).toMatchObject({ step: 5, path: '/ck/v2', version: 2, pending: ['s5-minicalc-0'] });
    expect(connected.journal.lastVersion()).toBe(2);
  });
});
