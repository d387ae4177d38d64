import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStore } from '../../../src/corpus/run-store.js';
import { readEpisodes } from '../../../src/corpus/read-episodes.js';
import { readStoredBug } from '../../../src/corpus/read-stored-bug.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { discarded, makeBug, makeEpisode } from './corpus-factory.js';

const options = { command: 'selfplay', config: { repos: ['pyledger'], steps: 2, seed: 7 } };
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ssr-run-store-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const lines = async (name: string): Promise<unknown[]> =>
  (await readFile(join(root, name), 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown);

describe('RunStore', () => {
  it('creates the layout and run.json, and reopens as a resume', async () => {
    const store = await RunStore.open(root, options);
    expect(store.resumed).toBe(false);
    expect((await readdir(root)).sort()).toEqual(['.lock', 'bugs', 'run.json', 'samples', 'trajectories']);
    expect((await RunStore.open(root, options)).resumed).toBe(true);
  });

  it('refuses a run dir that another live process holds, and takes over a dead one', async () => {
    const other = spawn('sleep', ['30']);
    try {
      await writeFile(join(root, '.lock'), `${other.pid}\n`);
      await expect(RunStore.open(root, options)).rejects.toThrow(new RegExp(`in use by process ${other.pid}`));
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.on('exit', resolve));
    }
    const store = await RunStore.open(root, options);
    expect(await readFile(join(root, '.lock'), 'utf8')).toBe(`${process.pid}\n`);
    await store.close();
    expect(await readdir(root)).not.toContain('.lock');
  });

  it('refuses to resume with other settings, naming the keys', async () => {
    await RunStore.open(root, options);
    const error = await RunStore.open(root, { ...options, config: { ...options.config, seed: 8 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toMatch(/different settings \(seed: 7 in the run, 8 now\)/);
  });

  describe('episodes', () => {
    it('records an episode once, across reopenings', async () => {
      const store = await RunStore.open(root, options);
      expect(store.hasEpisode('ep-0-0')).toBe(false);
      expect(await store.recordEpisode(makeEpisode())).toBe(true);
      expect(await store.recordEpisode(makeEpisode({ turns: 99 }))).toBe(false);
      const again = await RunStore.open(root, options);
      expect(again.hasEpisode('ep-0-0')).toBe(true);
      expect(await again.recordEpisode(makeEpisode())).toBe(false);
      expect(await lines('episodes.jsonl')).toEqual([makeEpisode()]);
    });

    it('writes each id once under concurrent records', async () => {
      const store = await RunStore.open(root, options);
      const ids = ['a', 'b', 'a', 'c', 'b', 'a'];
      const written = await Promise.all(ids.map((id) => store.recordEpisode(makeEpisode({ id }))));
      expect(written.filter(Boolean)).toHaveLength(3);
      expect(((await lines('episodes.jsonl')) as Array<{ id: string }>).map((r) => r.id).sort()).toEqual(['a', 'b', 'c']);
    });

    it('lets a completed retry follow a discarded episode, and nothing follow that', async () => {
      const store = await RunStore.open(root, options);
      expect(await store.recordEpisode(discarded('e'))).toBe(true);
      expect(store.hasEpisode('e')).toBe(false);
      expect(await store.recordEpisode(discarded('e', 'again'))).toBe(false);
      expect(await store.recordEpisode(makeEpisode({ id: 'e' }))).toBe(true);
      expect(await store.recordEpisode(discarded('e'))).toBe(false);
      const reopened = await RunStore.open(root, options);
      expect(reopened.hasEpisode('e')).toBe(true);
      expect(reopened.episodes()).toEqual([makeEpisode({ id: 'e' })]);
      expect(await readEpisodes(root)).toEqual([makeEpisode({ id: 'e' })]);
      expect(await lines('episodes.jsonl')).toHaveLength(2);
    });

    it('ignores a torn last line on reopening and records that episode again, whole', async () => {
      const store = await RunStore.open(root, options);
      await store.recordEpisode(makeEpisode({ id: 'a' }));
      await appendFile(join(root, 'episodes.jsonl'), JSON.stringify(makeEpisode({ id: 'b' })).slice(0, 50));
      const reopened = await RunStore.open(root, options);
      expect(reopened.episodes().map((e) => e.id)).toEqual(['a']);
      expect(await reopened.recordEpisode(makeEpisode({ id: 'b' }))).toBe(true);
      expect(((await lines('episodes.jsonl')) as Array<{ id: string }>).map((r) => r.id)).toEqual(['a', 'b']);
    });

    it('rejects a malformed record without writing it', async () => {
      const store = await RunStore.open(root, options);
      await expect(store.recordEpisode(makeEpisode({ solved: 9 }))).rejects.toThrow(/episode record ep-0-0: .*solved exceeds/s);
      expect(store.episodes()).toEqual([]);
    });
  });

  describe('bugs', () => {
    it('writes a complete bug dir under its content id, once', async () => {
      const store = await RunStore.open(root, options);
      const first = await store.writeBug(makeBug());
      expect(first).toMatchObject({ status: 'written', id: expect.stringMatching(/^bug-[0-9a-f]{16}$/), buggyTreeHash: expect.stringMatching(/^tree-/) });
      expect(await store.writeBug(makeBug())).toMatchObject({ status: 'exists', id: first.id });
      const dir = join(root, 'bugs', first.id);
      expect((await readdir(dir)).sort()).toEqual(['bug_inject.diff', 'metadata.json', 'test_files.txt', 'test_parser.py', 'test_script.sh', 'test_weaken.diff', 'validation.json']);
      const bug = await readStoredBug(dir);
      expect(bug?.metadata).toMatchObject({ id: first.id, buggyTreeHash: first.buggyTreeHash, repo: 'pyledger', order: 1 });
      expect(bug?.validation).toMatchObject({ valid: true, failToPass: ['t::a'] });
      expect((await RunStore.open(root, options)).hasBug(first.id)).toBe(true);
    });

    it('does not store a valid bug whose buggy tree is stored already, even after reopening', async () => {
      const store = await RunStore.open(root, options);
      const first = await store.writeBug(makeBug());
      const sameBug = makeBug({ testScript: '#!/bin/bash\npytest -rA tests\n' });
      expect(await store.writeBug(sameBug)).toMatchObject({ status: 'duplicate', of: first.id });
      expect(await (await RunStore.open(root, options)).writeBug(sameBug)).toMatchObject({ status: 'duplicate', of: first.id });
      expect(await readdir(join(root, 'bugs'))).toEqual([first.id]);
    });

    it('keeps invalid bugs, which never block a valid one with the same tree', async () => {
      const store = await RunStore.open(root, options);
      const invalid = await store.writeBug(makeBug({ valid: false, testScript: 'exit 1\n' }));
      expect(invalid.status).toBe('written');
      expect(await store.writeBug(makeBug({ valid: false, testScript: 'exit 2\n' }))).toMatchObject({ status: 'written' });
      const valid = await store.writeBug(makeBug());
      expect(valid).toMatchObject({ status: 'written', buggyTreeHash: invalid.buggyTreeHash });
      expect(store.validBugForTree(valid.buggyTreeHash)).toBe(valid.id);
    });

    it('removes what a killed process left half-written', async () => {
      await RunStore.open(root, options);
      await mkdir(join(root, 'bugs', '.bug-1.staging-1-abcd'), { recursive: true });
      await writeFile(join(root, 'bugs', '.bug-1.staging-1-abcd', 'bug_inject.diff'), 'x');
      await RunStore.open(root, options);
      expect(await readdir(join(root, 'bugs'))).toEqual([]);
    });

    it('records solves.json with the counts derived from the attempts', async () => {
      const store = await RunStore.open(root, options);
      const { id } = await store.writeBug(makeBug());
      const record = await store.writeSolves(id, [
        { id: 's0', status: 'solved', reward: 1, exitStatus: 'submitted', reason: null },
        { id: 's1', status: 'failed', reward: -1, exitStatus: 'turn-limit', reason: null },
        { id: 's2', status: 'discarded', reward: null, exitStatus: 'infrastructure-error', reason: 'docker gone' },
      ]);
      expect(record).toMatchObject({ scored: 2, solves: 1, solveRate: 0.5 });
      expect((await readStoredBug(join(root, 'bugs', id)))?.solves).toEqual(record);
      await expect(store.writeSolves('bug-unknown', [])).rejects.toThrow(/no such bug/);
    });
  });

  it('records one metrics line per step', async () => {
    const store = await RunStore.open(root, options);
    expect(await store.recordMetrics({ step: 0, valid: 3 })).toBe(true);
    expect(await (await RunStore.open(root, options)).recordMetrics({ step: 0, valid: 4 })).toBe(false);
    expect(await store.recordMetrics({ step: 1, valid: 5 })).toBe(true);
    expect(await lines('metrics.jsonl')).toEqual([{ step: 0, valid: 3 }, { step: 1, valid: 5 }]);
  });

  it.each(['../escape', '.hidden', 'a/b', ''])('refuses the trajectory id %j', async (id) => {
    const store = await RunStore.open(root, options);
    expect(() => store.trajectoryPath(id)).toThrow(/cannot be a file name/);
  });

  it('puts trajectories under trajectories/', async () => {
    const store = await RunStore.open(root, options);
    expect(store.trajectoryPath('ep-0-0.solve-3')).toBe(join(root, 'trajectories', 'ep-0-0.solve-3.jsonl'));
  });
});
