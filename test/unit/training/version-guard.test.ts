import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrainingJournal } from '../../../src/training/training-journal.js';
import { checkTrainerVersion, runLastVersion, type VersionCheck } from '../../../src/training/version-guard.js';
import { EngineError } from '../../../src/util/engine-error.js';

const at = '2026-01-01T00:00:00Z';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-version-guard-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('TrainingJournal and runLastVersion', () => {
  it('knows each step\'s train call, the last checkpoint and the newest version, also after reopening', async () => {
    const journal = await TrainingJournal.open(dir);
    expect([journal.trainOf(1), journal.lastCheckpoint(), journal.lastVersion(), runLastVersion(journal, [])]).toEqual([null, null, null, null]);
    await journal.append({ type: 'train', step: 1, expectedVersion: 0, samples: 3, at });
    await journal.append({ type: 'train', step: 2, expectedVersion: 1, samples: 3, at });
    await journal.append({ type: 'checkpoint', step: 2, path: '/ck/v2', version: 2, at });
    await journal.append({ type: 'train', step: 3, expectedVersion: 2, samples: 3, at });
    const back = await TrainingJournal.open(dir);
    expect(back.trainOf(2)?.expectedVersion).toBe(1);
    expect(back.lastCheckpoint()).toEqual({ path: '/ck/v2', version: 2 });
    expect(back.lastVersion()).toBe(2);
    // Step 3's answer (version 3) is only in metrics.jsonl.
    expect(runLastVersion(back, [{ step: 3, trainer: { version: 3, metrics: {} } }])).toBe(3);
  });

  it('forgets the history a resume abandoned', async () => {
    const journal = await TrainingJournal.open(dir);
    await journal.append({ type: 'checkpoint', step: 2, path: '/ck/v2', version: 2, at });
    await journal.append({ type: 'train', step: 4, expectedVersion: 3, samples: 1, at });
    await journal.append({ type: 'resume', step: 4, path: '/ck/v2', version: 2, pending: ['s4-x'], at });
    expect(journal.trainOf(4)).toBeNull();
    expect(journal.lastVersion()).toBe(2);
    expect(journal.lastResume()).toMatchObject({ step: 4, version: 2, pending: ['s4-x'] });
    expect(runLastVersion(journal, [{ step: 3, trainer: { version: 4, metrics: {} } }])).toBe(2);
  });
});

describe('checkTrainerVersion', () => {
  const check = (overrides: Partial<VersionCheck>): VersionCheck => ({ url: 'http://t', trainerVersion: 5, runVersion: 5, checkpoint: null, resume: false, ...overrides });

  it.each([
    ['a new run', { runVersion: null, trainerVersion: 0 }],
    ['a trainer where the run left it', {}],
    ['a trainer ahead of the run', { trainerVersion: 7 }],
    ['--resume at the last checkpoint', { resume: true, trainerVersion: 3, checkpoint: { path: '/ck/v3', version: 3 } }],
  ])('accepts %s', (_name, overrides) => {
    expect(() => checkTrainerVersion(check(overrides))).not.toThrow();
  });

  it.each([
    ['behind, no checkpoint', {}, /the trainer at http:\/\/t is at policy version 2, but this run already trained up to version 5: it was restarted from an older checkpoint\. Nothing was trained\. This run wrote no checkpoint/],
    ['behind, a checkpoint at the run\'s version', { checkpoint: { path: '/ck/v5', version: 5 } }, /restart the trainer service with `--resume \/ck\/v5` and run the same command again/],
    ['behind, an older checkpoint', { checkpoint: { path: '/ck/v3', version: 3 } }, /continue from the run's last checkpoint \(version 3\), restart the trainer service with `--resume \/ck\/v3` and run the same command with --resume/],
    ['--resume off the checkpoint', { resume: true, checkpoint: { path: '/ck/v3', version: 3 } }, /--resume: the trainer at http:\/\/t is at policy version 2, but the run's last checkpoint is version 3: restart the trainer service with `--resume \/ck\/v3`/],
    ['--resume without a checkpoint', { resume: true }, /this run dir has none \(write them with --save-every N\)/],
  ])('refuses a trainer %s', (_name, overrides, message) => {
    const run = () => checkTrainerVersion(check({ trainerVersion: 2, ...overrides }));
    expect(run).toThrow(EngineError);
    expect(run).toThrow(message);
  });
});
