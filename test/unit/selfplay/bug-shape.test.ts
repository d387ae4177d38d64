import { describe, expect, it } from 'vitest';
import { bugShape, diffShape, recordedOperators } from '../../../src/selfplay/bug-shape.js';
import { header, step, trajectory } from '../rl/trajectory-factory.js';

const modify = `diff --git a/pkg/a.py b/pkg/a.py
--- a/pkg/a.py
+++ b/pkg/a.py
@@ -1,4 +1,3 @@
 x = 1
-y = 2
 z = 3
 w = 4
@@ -10,3 +9,3 @@
 a
-b = 1
+b = 2
 c
`;
const deleteFile = `diff --git a/pkg/b.py b/pkg/b.py
deleted file mode 100644
--- a/pkg/b.py
+++ /dev/null
@@ -1,2 +0,0 @@
-one
-two
`;

describe('diffShape', () => {
  it.each([
    ['two hunks of one file', modify, { files: 1, hunks: 2, lines: 3, kinds: ['remove-lines', 'replace-lines'] }],
    ['a deleted file', deleteFile, { files: 1, hunks: 1, lines: 2, kinds: ['delete-file'] }],
    ['both', modify + deleteFile, { files: 2, hunks: 3, lines: 5, kinds: ['delete-file', 'remove-lines', 'replace-lines'] }],
    ['garbage', 'not a diff at all\n\x00', { files: 0, hunks: 0, lines: 0, kinds: ['unparsable'] }],
  ])('%s', (_name, diff, expected) => {
    expect(diffShape(diff)).toEqual(expected);
  });
});

describe('recordedOperators', () => {
  const created = (path: string, content: string) =>
    step(5, { toolCall: { id: 'c5', name: 'create', arguments: { path, content } } });
  const injector = (steps: ReturnType<typeof step>[]) => trajectory({ header: header({ role: 'injector' }), steps });
  const metadata = JSON.stringify({ operators: [{ operator: 'remove-function-body' }, { operator: 'comparison-swap' }, { operator: 'comparison-swap' }] });

  it.each([
    ['the procedural metadata.json', [created('/tmp/ssr_art/metadata.json', metadata)], ['comparison-swap', 'remove-function-body']],
    ['no metadata written', [step(1)], []],
    ['metadata that is not JSON', [created('/tmp/a/metadata.json', '{oops')], []],
  ])('%s', (_name, steps, expected) => {
    expect(recordedOperators(injector(steps))).toEqual(expected);
  });

  it('bugShape prefers the recorded operators over the diff shape', () => {
    expect(bugShape(modify, injector([created('/x/metadata.json', metadata)])).kinds).toEqual(['comparison-swap', 'remove-function-body']);
    expect(bugShape(modify, null).kinds).toEqual(['remove-lines', 'replace-lines']);
  });
});
