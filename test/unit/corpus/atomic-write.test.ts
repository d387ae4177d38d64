import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeJsonAtomic } from '../../../src/corpus/atomic-write.js';
import { EngineError } from '../../../src/util/engine-error.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-atomic-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('writes a new file (creating its folder) and replaces an old one, leaving no temp file', async () => {
    const path = join(dir, 'a', 'b.json');
    await writeJsonAtomic(path, { n: 1 });
    await writeFileAtomic(path, 'second\n');
    expect(await readFile(path, 'utf8')).toBe('second\n');
    expect(await readdir(join(dir, 'a'))).toEqual(['b.json']);
  });

  it('keeps the mode it is given', async () => {
    await writeFileAtomic(join(dir, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    expect((await stat(join(dir, 'run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('on failure leaves what was there and no temp file', async () => {
    const path = join(dir, 'taken');
    await mkdir(path);
    await writeFile(join(path, 'keep'), 'x');
    const error = await writeFileAtomic(path, 'new').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toMatch(/cannot write .*taken/);
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readFile(join(path, 'keep'), 'utf8')).toBe('x');
  });
});
