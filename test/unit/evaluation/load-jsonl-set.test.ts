import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEvalConfig } from '../../../src/evaluation/eval-config.js';
import { loadJsonlSet } from '../../../src/evaluation/load-jsonl-set.js';
import { refuseMissingImages } from '../../../src/evaluation/missing-images.js';
import { repoLookup } from '../../../src/evaluation/repo-lookup.js';

const O = 'f'.repeat(40);
const PATCH = 'diff --git a/lib/a.py b/lib/a.py\n--- a/lib/a.py\n+++ b/lib/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n';
const TEST_PATCH = 'diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n@@ -1 +1,2 @@\n def test_a(): pass\n+def test_b(): assert x == 2\n';
const line = (over: Record<string, unknown>) => JSON.stringify({ instance_id: 'i1', repo: 'acme/lib', original_commit: O, environment_bundle: 'lib.bundle', patch: PATCH, test_patch: TEST_PATCH, ...over });

describe('loadJsonlSet (SWE-bench-format lines)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssr-eval-set-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const load = async (text: string) => {
    const file = join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
    await writeFile(file, text);
    return { file, load: () => loadJsonlSet(file, repoLookup(undefined, [])) };
  };

  it('derives the artifact of an external line from patch and test_patch, its repo from the bundle and its image from `image`', async () => {
    const { load: run } = await load(`${line({ image: 'acme/env:1' })}\n`);
    const [instance] = await run();
    expect(instance).toMatchObject({
      instanceId: 'i1', kind: 'external', userImage: 'acme/env:1',
      repo: { id: 'acme__lib', location: join(dir, 'lib.bundle'), commit: O, image: { base: 'acme/env:1' } },
      artifact: { testFiles: ['tests/test_a.py'], testScript: expect.stringContaining('python3 -m pytest -rA -p no:cacheprovider tests/test_a.py') },
    });
    expect(instance!.artifact.bugInject).toContain('-x = 2\n+x = 1');
    expect(instance!.artifact.testWeaken).toContain('-def test_b(): assert x == 2');
  });

  it.each([
    ['no original commit', line({ original_commit: undefined }), /:1: no original_commit/],
    ['a line that is not JSON', '{nope', /:1: not JSON/],
    ['a bad sha', line({ original_commit: 'abc' }), /:1: original_commit: expected the 40-hex sha/],
    ['no source at all', line({ environment_bundle: undefined }), /:1: repo acme__lib is not in repos\.yaml and the line has no environment_bundle/],
  ])('refuses %s, naming the file and line', async (_what, text, message) => {
    const { load: run } = await load(`${text}\n`);
    await expect(run()).rejects.toThrow(message);
  });
});

describe('refuseMissingImages', () => {
  it('lists every missing image once, with the instances that name it, before any episode', async () => {
    const instances = ['a', 'b', 'c'].map((id, i) => ({ instanceId: id, userImage: i === 2 ? 'here:1' : 'gone:1' })) as never[];
    await expect(refuseMissingImages(instances, async (ref) => ref === 'here:1')).rejects.toThrow(/names 1 image\(s\) that do not exist on this machine.*\n {2}gone:1 \(a, b\)$/s);
    await expect(refuseMissingImages(instances, async () => true)).resolves.toBeUndefined();
  });
});

describe('checkEvalConfig', () => {
  it('records the set and policy, resumes with the same, refuses another policy', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssr-eval-config-'));
    try {
      await checkEvalConfig(dir, { set: '/sets/a', policy: 'procedural' });
      await expect(checkEvalConfig(dir, { set: '/sets/a', policy: 'procedural' })).resolves.toBeUndefined();
      await expect(checkEvalConfig(dir, { set: '/sets/a', policy: 'openai:m' })).rejects.toThrow(/holds attempts of policy procedural, not openai:m: give another --out/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
