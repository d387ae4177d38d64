import { describe, expect, it } from 'vitest';
import { findCommentedOutCode } from '../../../src/code/commented-out-code.js';
import { parseUnifiedDiff } from '../../../src/code/unified-diff.js';

function diff(lines: string[]): string {
  return ['diff --git a/tests/test_x.py b/tests/test_x.py', '--- a/tests/test_x.py', '+++ b/tests/test_x.py', `@@ -1,${lines.filter((l) => !l.startsWith('+')).length} +1,${lines.filter((l) => !l.startsWith('-')).length} @@`, ...lines, ''].join('\n');
}

describe('findCommentedOutCode', () => {
  it.each([
    ['a test commented out', ['-def test_a():', '-    assert f(1) == 2', '+# def test_a():', '+#     assert f(1) == 2', ' x = 1'], 2],
    ['an assertion commented with no space', ['-    assert f(1) == 2', '+    #assert f(1) == 2', ' x = 1'], 1],
    ['a test deleted outright', ['-def test_a():', '-    assert f(1) == 2', ' x = 1'], 0],
    ['an unrelated new comment', ['-    assert f(1) == 2', '+    # checks the rounding', ' x = 1'], 0],
    ['a trivial commented line', ['-    pass', '+    # pass', ' x = 1'], 0],
  ])('%s → %i line(s)', (_label, lines, count) => {
    expect(findCommentedOutCode(parseUnifiedDiff(diff(lines)))).toHaveLength(count);
  });
});
