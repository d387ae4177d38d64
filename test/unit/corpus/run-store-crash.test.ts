import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readEpisodes } from '../../../src/corpus/read-episodes.js';
import { readSamples } from '../../../src/rl/sample-writer.js';

const WRITER = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));
const COUNT = 60;
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** Run the writer; with `killAfterLines`, SIGKILL it once episodes.jsonl has more lines than that. */
function runWriter(root: string, killAfterLines?: number): Promise<NodeJS.Signals | number | null> {
  return new Promise((resolve, reject) => {
    // `node --import tsx`, not the tsx CLI: that one runs the script in a child that SIGKILL would orphan.
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, root, String(COUNT)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer =
      killAfterLines === undefined
        ? undefined
        : setInterval(() => {
            void readFile(join(root, 'episodes.jsonl'), 'utf8')
              .then((text) => text.split('\n').length > killAfterLines && child.kill('SIGKILL'))
              .catch(() => undefined);
          }, 5);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      if (code !== 0 && signal === null) reject(new Error(`writer exited ${code}: ${stderr}`));
      else resolve(signal ?? code);
    });
  });
}

describe('RunStore after kill -9', () => {
  it('continues where the killed process stopped: every episode, bug and sample exactly once', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ssr-crash-'));
    dirs.push(root);
    expect(await runWriter(root, 10)).toBe('SIGKILL');
    const before = await readEpisodes(root);
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(COUNT);

    expect(await runWriter(root)).toBe(0);
    const ids = (await readEpisodes(root)).map((e) => e.id);
    const expected = Array.from({ length: COUNT }, (_, i) => `ep-${i}`);
    expect(ids).toEqual(expected);
    const lines = (await readFile(join(root, 'episodes.jsonl'), 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(COUNT);
    expect((await readSamples(root, 0)).map((s) => s.episodeId)).toEqual(expected);
    const bugs = await readdir(join(root, 'bugs'));
    expect(bugs.filter((name) => name.startsWith('.'))).toEqual([]);
    expect(bugs).toHaveLength(COUNT);
  }, 60_000);
});
