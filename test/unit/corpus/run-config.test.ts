import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { differingKeys, ensureRunConfig } from '../../../src/corpus/run-config.js';
import { EngineError } from '../../../src/util/engine-error.js';

const config = { repos: ['pyledger'], steps: 3, policy: { type: 'procedural', seed: 1 }, alpha: 0.8 };
let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssr-run-config-'));
  path = join(dir, 'run.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function failure(run: Promise<unknown>): Promise<EngineError> {
  const error = await run.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('ensureRunConfig', () => {
  it('creates run.json, then accepts the same settings (key order and undefined fields aside)', async () => {
    expect(await ensureRunConfig(path, 'selfplay', { ...config, unset: undefined })).toBe('created');
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ format: 1, command: 'selfplay', config });
    const reordered = { alpha: 0.8, policy: { seed: 1, type: 'procedural' }, steps: 3, repos: ['pyledger'] };
    expect(await ensureRunConfig(path, 'selfplay', reordered)).toBe('resumed');
  });

  it('records which ssr created the run: its package version and the commit of this checkout', async () => {
    await ensureRunConfig(path, 'selfplay', config);
    const { ssr } = JSON.parse(await readFile(path, 'utf8')) as { ssr: { version: string; gitSha: string | null; dirty: boolean | null } };
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(ssr.version).toBe(pkg.version);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: fileURLToPath(new URL('../../../', import.meta.url)), encoding: 'utf8' }).trim();
    expect(ssr.gitSha).toBe(head);
    expect(typeof ssr.dirty).toBe('boolean');
  });

  it('refuses different settings, naming every differing key with both values', async () => {
    await ensureRunConfig(path, 'selfplay', config);
    const error = await failure(ensureRunConfig(path, 'selfplay', { ...config, steps: 5, policy: { type: 'procedural', seed: 2 }, extra: true }));
    expect(error.code).toBe('usage');
    expect(error.message).toMatch(/cannot resume .*run\.json with different settings \(extra: \(unset\) in the run, true now; policy\.seed: 1 in the run, 2 now; steps: 3 in the run, 5 now\)/);
  });

  it('refuses a run dir of another command', async () => {
    await ensureRunConfig(path, 'corpus', config);
    expect((await failure(ensureRunConfig(path, 'selfplay', config))).message).toMatch(/belongs to `ssr corpus`, not `ssr selfplay`/);
  });

  it.each([
    ['not JSON', '{'],
    ['not a run config', '{"format": 2}'],
  ])('reports a run.json that is %s', async (_name, text) => {
    await writeFile(path, text);
    const error = await failure(ensureRunConfig(path, 'selfplay', config));
    expect(error.code).toBe('config-invalid');
    expect(error.message).toMatch(/run\.json is not a run config/);
  });
});

describe('differingKeys', () => {
  it.each([
    [{ a: 1 }, { a: 1 }, []],
    [{ a: [1, 2] }, { a: [2, 1] }, ['a']],
    [{ a: { b: { c: 1 } } }, { a: { b: { c: 2 } } }, ['a.b.c']],
    [{ a: { b: 1 } }, { a: 3 }, ['a']],
    [1, 2, ['(config)']],
  ])('%j vs %j → %j', (a, b, keys) => {
    expect(differingKeys(a, b)).toEqual(keys);
  });
});
