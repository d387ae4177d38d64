import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invertUnifiedDiff } from '../../../../src/code/invert-diff.js';
import { extractTaskDiff } from '../../../../src/policy/procedural/solver/task-diff.js';

const ARTIFACTS = join(import.meta.dirname, '../../../fixtures/artifacts');
const taskOf = (artifact: string): string => invertUnifiedDiff(readFileSync(join(ARTIFACTS, artifact, 'test_weaken.diff')));
const singleFile = taskOf('valid-single-file');
const twoFiles = taskOf('valid-two-files');

const fenced = (diff: string, fence = '```diff'): string =>
  `I'm improving the test suite with the changes below.\n\n${fence}\n${diff.replace(/\n$/, '')}\n\`\`\`\n\nFix the code, not the tests.\n`;

describe('extractTaskDiff', () => {
  it.each([
    ['a ```diff fence', fenced(singleFile)],
    ['a bare ``` fence', fenced(singleFile, '```')],
    ['no fence at all', `Make these pass:\n${singleFile}`],
    ['a diff --git line after an unrelated fence', `Run \`pytest\`:\n\`\`\`\npython3 -m pytest\n\`\`\`\n${singleFile}`],
  ])('finds the diff in %s', (_case, prompt) => {
    const task = extractTaskDiff(prompt);
    expect(task?.text).toBe(singleFile);
    expect(task?.files).toEqual(['tests/test_money.py']);
  });

  it('names the tests the diff re-adds, with their lines in the new file', () => {
    const task = extractTaskDiff(fenced(singleFile))!;
    expect(task.tests).toEqual([
      { file: 'tests/test_money.py', name: 'test_split_evenly_keeps_every_cent', line: 115, change: 'added' },
      { file: 'tests/test_money.py', name: 'test_allocate_by_ratio', line: 120, change: 'added' },
      { file: 'tests/test_money.py', name: 'test_negative_amounts_allocate_symmetrically', line: 128, change: 'added' },
    ]);
  });

  it('reads a diff over two files', () => {
    const task = extractTaskDiff(fenced(twoFiles))!;
    expect(task.files).toEqual(['tests/test_reports.py', 'tests/test_ledger.py']);
    expect(task.tests.map((test) => test.file)).toContain('tests/test_reports.py');
  });

  it('names a test whose assertions come back as modified', () => {
    const diff = [
      'diff --git a/tests/test_a.py b/tests/test_a.py',
      '--- a/tests/test_a.py',
      '+++ b/tests/test_a.py',
      '@@ -1,3 +1,4 @@',
      ' def test_sum():',
      '     assert sum([]) == 0',
      '+    assert sum([1, 2]) == 3',
      ' ',
      '',
    ].join('\n');
    expect(extractTaskDiff(fenced(diff))?.tests).toEqual([{ file: 'tests/test_a.py', name: 'test_sum', line: 1, change: 'modified' }]);
  });

  it.each([
    ['no diff', 'Please fix the bug.'],
    ['a fence that holds no diff', '```diff\nnothing to see\n```'],
    ['an empty prompt', ''],
  ])('returns null for %s', (_case, prompt) => {
    expect(extractTaskDiff(prompt)).toBeNull();
  });
});

describe('taskTests on a JS test file', () => {
  it('names the it()/test() blocks a diff adds or changes', async () => {
    const { parseUnifiedDiff } = await import('../../../../src/code/unified-diff.js');
    const { taskTests } = await import('../../../../src/policy/procedural/solver/task-diff.js');
    const diff = [
      'diff --git a/test/c.test.mjs b/test/c.test.mjs',
      '--- a/test/c.test.mjs',
      '+++ b/test/c.test.mjs',
      "@@ -1,3 +1,6 @@ describe('lastN', () => {",
      "   it('takes nothing for zero', () => {",
      '+    assert.equal(1, 1);',
      '   });',
      "+  it('takes the last items', () => assert.deepEqual(lastN([1, 2, 3, 4], 2), [3, 4]));",
      "+  test.skip(\"later\", () => {});",
      ' });',
      '',
    ].join('\n');
    expect(taskTests(parseUnifiedDiff(diff)).map((t) => [t.name, t.change])).toEqual([
      ['takes nothing for zero', 'modified'],
      ['takes the last items', 'added'],
      ['later', 'added'],
    ]);
  });
});
