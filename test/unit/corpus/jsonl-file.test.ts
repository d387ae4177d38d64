import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appendJsonl, readJsonl } from '../../../src/corpus/jsonl-file.js';
import { EngineError } from '../../../src/util/engine-error.js';

const lineSchema = z.object({ id: z.string() });
let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-jsonl-'));
  path = join(dir, 'sub', 'log.jsonl');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('readJsonl / appendJsonl', () => {
  it('reads a missing file as empty', async () => {
    expect(await readJsonl(path, lineSchema)).toEqual({ records: [], torn: false, completeBytes: 0 });
  });

  it('appends whole lines (creating the folder) and reads them back', async () => {
    await appendJsonl(path, [{ id: 'a' }, { id: 'b' }]);
    await appendJsonl(path, []);
    await appendJsonl(path, [{ id: 'c' }]);
    expect(await readFile(path, 'utf8')).toBe('{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n');
    expect((await readJsonl(path, lineSchema)).records).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  });

  it.each([
    ['a torn line', '{"id":"b'],
    // Complete JSON but no newline: a write cut just before it; still not a line.
    ['a line without its newline', '{"id":"b"}'],
  ])('ignores %s at the end, and the next append cuts it off', async (_name, tail) => {
    await appendJsonl(path, [{ id: 'a' }]);
    await appendFile(path, tail);
    expect(await readJsonl(path, lineSchema)).toEqual({ records: [{ id: 'a' }], torn: true, completeBytes: 11 });
    await appendJsonl(path, [{ id: 'c' }]);
    expect(await readFile(path, 'utf8')).toBe('{"id":"a"}\n{"id":"c"}\n');
  });

  it('cuts off a torn line longer than the scan chunk, and a file that is all torn line', async () => {
    await appendJsonl(path, [{ id: 'a' }]);
    await appendFile(path, `{"id":"${'b'.repeat(200_000)}`);
    await appendJsonl(path, [{ id: 'c' }]);
    expect(await readFile(path, 'utf8')).toBe('{"id":"a"}\n{"id":"c"}\n');
    await writeFile(path, '{"id":"to');
    await appendJsonl(path, [{ id: 'd' }]);
    expect(await readFile(path, 'utf8')).toBe('{"id":"d"}\n');
  });

  it('keeps lines whole under concurrent appends', async () => {
    const big = 'x'.repeat(100_000);
    await Promise.all(Array.from({ length: 20 }, (_, i) => appendJsonl(path, [{ id: `${i}`, big }])));
    const { records, torn } = await readJsonl(path, lineSchema);
    expect(torn).toBe(false);
    expect(records.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
  });

  it.each([
    ['a bad line in the middle', '{"id":"a"}\n{oops\n{"id":"c"}\n', /log\.jsonl:2: not JSON/],
    ['a bad complete last line', '{"id":"a"}\n{oops\n', /log\.jsonl:2: not JSON/],
    ['a line of the wrong shape', '{"id":"a"}\n{"id":3}\n', /log\.jsonl:2: .*id/s],
  ])('rejects %s', async (_name, text, message) => {
    await writeFile(join(dir, 'log.jsonl'), text);
    const error = await readJsonl(join(dir, 'log.jsonl'), lineSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('artifact-invalid-input');
    expect((error as EngineError).message).toMatch(message);
  });
});
