import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../../../src/code/unified-diff.js';
import { parseTestCoverage, type TestCoverage } from '../../../../src/coverage/test-coverage.js';
import { changedLines, type ChangedLines } from '../../../../src/validator/selection/changed-lines.js';
import { linesToLookUp, selectByCoverage } from '../../../../src/validator/selection/coverage-selection.js';
import { pytestArgsOf } from '../../../../src/validator/selection/trace-original.js';

const dir = mkdtempSync(join(tmpdir(), 'ssr-changed-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real `git diff` of `before` → `after` in calc.py. */
function gitDiff(before: string, after: string): string {
  execFileSync('git', ['init', '-q', dir]);
  writeFileSync(join(dir, 'calc.py'), before);
  execFileSync('git', ['-C', dir, 'add', 'calc.py']);
  writeFileSync(join(dir, 'calc.py'), after);
  return execFileSync('git', ['-C', dir, 'diff', '-U3'], { encoding: 'utf8' });
}

const SOURCE = ['def add(a, b):', '    if a < 0:', '        a = -a', '    else:', '        b = b + 0', '    return a + b', ''].join('\n');

describe('changedLines (real git diffs)', () => {
  it("gives a rewrite's O lines and an insertion's place between two O lines", () => {
    const rewrite = changedLines(parseUnifiedDiff(gitDiff(SOURCE, SOURCE.replace('        a = -a', '        a = a'))));
    expect(rewrite).toEqual({ status: 'ok', files: new Map([['calc.py', { removed: [3], gaps: [] }]]) });
    const insert = changedLines(parseUnifiedDiff(gitDiff(SOURCE, SOURCE.replace('    return a + b', '    a += 1\n    return a + b'))));
    expect(insert).toEqual({ status: 'ok', files: new Map([['calc.py', { removed: [], gaps: [5] }]]) });
  });

  it('cannot read a diff that adds a file', () => {
    const added = 'diff --git a/new.py b/new.py\nnew file mode 100644\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 1\n';
    expect(changedLines(parseUnifiedDiff(added))).toMatchObject({ status: 'unreadable', reason: expect.stringContaining('new.py') });
  });
});

/** calc.py: line 1 (`def`) runs at import; 2 and 6 in both test files; 3 only in test_neg; 5 only in test_pos. */
const MAP = [
  '@@tfile 0 tests/test_neg.py',
  '@@tfile 1 tests/test_pos.py',
  '@@tfile 2 tests/test_other.py',
  '@@tcov calc.py 1 *',
  '@@tcov calc.py 2,6 0,1',
  '@@tcov calc.py 3 0',
  '@@tcov calc.py 5 1',
  '@@trace ok 3',
  '@@tquery 7',
].join('\n');
const RAN = ['tests/test_neg.py', 'tests/test_other.py', 'tests/test_pos.py'];

function coverage(text = MAP): TestCoverage {
  const read = parseTestCoverage(text);
  if (read.status !== 'ok') throw new Error(read.reason);
  return read.coverage;
}
const select = (changed: ChangedLines, listed: string[] = [], ranFiles = RAN) => selectByCoverage({ coverage: coverage(), changed: new Map([['calc.py', changed]]), ranFiles, listed });

describe('selectByCoverage', () => {
  it('keeps the test files that execute a rewritten line, and the listed ones, and leaves the rest out', () => {
    expect(select({ removed: [3], gaps: [] })).toEqual({ status: 'selected', ignore: ['tests/test_other.py', 'tests/test_pos.py'], keptTestFiles: 1, testFiles: 3 });
    expect(select({ removed: [3], gaps: [] }, ['tests/test_other.py'])).toMatchObject({ status: 'selected', ignore: ['tests/test_pos.py'] });
  });

  it('looks an untraced line (`else:`) and an insertion up by the traced lines around them', () => {
    // `else:` (4) stands for 3 and 5; an insertion after 4 for 3 and 5 too.
    expect(linesToLookUp(coverage().lines.get('calc.py')!, { removed: [4], gaps: [4] })).toEqual([3, 5]);
    expect(select({ removed: [4], gaps: [] })).toMatchObject({ status: 'selected', ignore: ['tests/test_other.py'] });
  });

  it('runs the full suite, saying why, when the coverage cannot say', () => {
    expect(select({ removed: [1], gaps: [] })).toEqual({ status: 'full', reason: 'calc.py:1 runs outside any test (import time or session set-up)' });
    // An insertion at the top of a body: the `def` line before it runs at import.
    expect(select({ removed: [], gaps: [1] })).toMatchObject({ status: 'full', reason: expect.stringContaining('calc.py:1 runs outside') });
    expect(select({ removed: [2], gaps: [] }, ['tests/test_other.py'])).toEqual({ status: 'full', reason: 'every one of the 3 test file(s) executes the change' });
    expect(select({ removed: [3], gaps: [] }, [], [...RAN, 'tests/test_new.py'])).toEqual({ status: 'full', reason: 'the traced run did not run tests/test_new.py, which the clean run ran' });
    const other = selectByCoverage({ coverage: coverage(), changed: new Map([['util.py', { removed: [1], gaps: [] }]]), ranFiles: RAN, listed: [] });
    expect(other).toEqual({ status: 'full', reason: 'no test executes any line of util.py' });
  });
});

describe('pytestArgsOf', () => {
  it("passes the script's plain pytest arguments on, and none when one is not a plain word", () => {
    expect(pytestArgsOf('cd /repo\npython3 -m pytest -rA -p no:cacheprovider tests\n')).toEqual(['-rA', '-p', 'no:cacheprovider', 'tests']);
    expect(pytestArgsOf('cd /repo && PYTHONDONTWRITEBYTECODE=1 pytest -q tests/test_a.py\n')).toEqual(['-q', 'tests/test_a.py']);
    expect(pytestArgsOf('pytest -k "a or b"\n')).toEqual([]);
    expect(pytestArgsOf('python3 -m unittest\n')).toEqual([]);
  });
});
