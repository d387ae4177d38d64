import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../../src/sandbox/images/file-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('withFileLock', () => {
  it('runs holders one at a time and releases the lock', async () => {
    const lock = join(dir, 'a.lock');
    const events: string[] = [];
    const holder = (name: string) =>
      withFileLock(lock, async () => {
        events.push(`${name} in`);
        expect((await readFile(lock, 'utf8')).trim()).toBe(String(process.pid));
        await sleep(300);
        events.push(`${name} out`);
      });
    await Promise.all([holder('a'), holder('b')]);
    // One at a time, in whichever order they won the lock (the race between them is the lock's).
    const first = events[0]!.split(' ')[0]!;
    const second = first === 'a' ? 'b' : 'a';
    expect(events).toEqual([`${first} in`, `${first} out`, `${second} in`, `${second} out`]);
    await expect(readFile(lock)).rejects.toThrow();
  });

  it('takes over a lock left by a dead process', async () => {
    const lock = join(dir, 'b.lock');
    await writeFile(lock, '999999999');
    expect(await withFileLock(lock, async () => 'ran')).toBe('ran');
  });

  it('releases the lock when the holder throws', async () => {
    const lock = join(dir, 'c.lock');
    await expect(withFileLock(lock, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await withFileLock(lock, async () => 'again')).toBe('again');
  });
});
