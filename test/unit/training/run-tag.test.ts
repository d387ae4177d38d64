import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureRunConfig } from '../../../src/corpus/run-config.js';
import { runTag } from '../../../src/training/run-tag.js';

describe('runTag (what names a run\'s adapters)', () => {
  const root = mkdtempSync(join(tmpdir(), 'ssr-run-tag-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is stable across resumes of one run dir and differs between run dirs', async () => {
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    for (const dir of [a, b]) {
      mkdirSync(dir);
      await ensureRunConfig(join(dir, 'run.json'), 'selfplay', {});
    }
    const first = await runTag(a);
    expect(first).toMatch(/^[0-9a-f]{10}$/);
    await ensureRunConfig(join(a, 'run.json'), 'selfplay', {});
    expect(await runTag(a)).toBe(first);
    expect(await runTag(b)).not.toBe(first);
  });

  it('a run dir without run.json is an error naming the file', async () => {
    await expect(runTag(join(root, 'none'))).rejects.toMatchObject({ code: 'config-invalid', message: expect.stringContaining(join(root, 'none', 'run.json')) });
  });
});
