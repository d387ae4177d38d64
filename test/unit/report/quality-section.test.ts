import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bucket, qualityDistribution } from '../../../src/corpus/quality-distribution.js';
import { RunStore } from '../../../src/corpus/run-store.js';
import { readRun } from '../../../src/report/read-run.js';
import { renderRunReport } from '../../../src/report/render-report.js';
import { jsonSummary } from '../../../src/selfplay/json-summary.js';
import { makeArtifact } from '../artifact/artifact-factory.js';
import { makeBug } from '../corpus/corpus-factory.js';

describe('quality distribution buckets', () => {
  it.each([
    [1, '1'], [2, '2-3'], [3, '2-3'], [4, '4-10'], [40, '11-40'], [41, '>40'],
  ])('%d failing tests → %s', (n, label) => {
    expect(bucket(n, [1, 3, 10, 40])).toBe(label);
  });

  it('counts breadth of valid bugs only where known, every kind and weakening', () => {
    const d = qualityDistribution([
      { breadth: { failingTests: 3, files: 1 }, kind: 'negate-condition', weakening: 'assertion' },
      { breadth: { failingTests: 44, files: 19 }, kind: 'invert-if-else', weakening: 'test' },
      { breadth: null, kind: 'removal', weakening: 'mixed' },
    ]);
    expect(d).toEqual({
      bugs: 3,
      failingTests: { '2-3': 1, '>40': 1 },
      failingFiles: { '1': 1, '>5': 1 },
      kinds: { 'negate-condition': 1, 'invert-if-else': 1, removal: 1 },
      weakening: { assertion: 1, test: 1, mixed: 1 },
    });
  });
});

describe('bug quality in a real run dir: stored by the run store, shown by the report and the --json summary', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'ssr-quality-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('records each valid bug once (a duplicate tree is not stored) and draws the histograms', async () => {
    const store = await RunStore.open(root, { command: 'selfplay', config: {} });
    const swap = makeBug();
    swap.artifact = makeArtifact({ metadata: { operators: [{ operator: 'swap-arguments' }], weakening: { granularity: 'assertion' } } });
    swap.validation = { ...swap.validation, failToPass: ['tests/test_mod.py::test_f', 'tests/test_mod.py::test_g'] };
    const removal = makeBug({ bugInject: 'diff --git a/pkg/mod.py b/pkg/mod.py\n--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1 +1 @@\n-return x + 1\n+return 0\n' });
    const invalid = makeBug({ bugInject: 'diff --git a/pkg/mod.py b/pkg/mod.py\n--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1 +1 @@\n-return x + 1\n+return 1\n', valid: false });
    expect((await store.writeBug(swap)).status).toBe('written');
    expect((await store.writeBug(removal)).status).toBe('written');
    expect((await store.writeBug(invalid)).status).toBe('written');
    // Same buggy tree as `swap`, other weakening: a duplicate, not a third valid bug.
    const again = { ...swap, artifact: { ...swap.artifact, testParser: 'print("{}")\n' } };
    expect((await store.writeBug(again)).status).toBe('duplicate');

    const summary = jsonSummary([], 0, root, store.validBugQualities());
    expect(summary.bugQuality).toEqual({
      bugs: 2,
      failingTests: { '1': 1, '2-3': 1 },
      failingFiles: { '1': 2 },
      kinds: { 'swap-arguments': 1, removal: 1 },
      weakening: { assertion: 2 },
    });
    await store.close();

    const run = await readRun(root);
    expect(run.quality).toEqual(summary.bugQuality);
    const section = /<section id="quality">[\s\S]*?<\/section>/.exec(renderRunReport(run, { linkBase: '' }))![0];
    expect(section).toContain('The 2 valid bug(s) of the run');
    expect(section).toMatch(/<td>swap-arguments<\/td><td class="num">1<\/td>/);
    expect(section).toMatch(/<td>assertion<\/td><td class="num">2<\/td>/);
    expect(section).toMatch(/<td>2-3<\/td><td class="num">1<\/td>/);
  });
});
