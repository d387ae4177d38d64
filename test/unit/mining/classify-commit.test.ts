import { describe, expect, it } from 'vitest';
import { classifyCommit, type ChangedPath } from '../../../src/mining/classify-commit.js';
import { reasonOfFailedCheck } from '../../../src/mining/skip-reasons.js';

const P = 'a'.repeat(40);
const facts = (changed: ChangedPath[], parents: string[] = [P], shallowBoundary = false) => ({ sha: 'c'.repeat(40), parents, shallowBoundary, changed });
const M = (path: string): ChangedPath => ({ status: 'M', path });

describe('classifyCommit', () => {
  it.each([
    ['a merge commit', facts([M('lib/a.py'), M('tests/test_a.py')], [P, 'b'.repeat(40)]), 'merge-commit'],
    ['the root commit', facts([], []), 'root-commit'],
    ['the oldest commit of a shallow clone', facts([], [], true), 'shallow-boundary'],
    ['a code-only commit', facts([M('lib/a.py'), M('README.md')]), 'no-test-change'],
    ['a commit that only deletes a test file', facts([M('lib/a.py'), { status: 'D', path: 'tests/test_old.py' }]), 'no-test-change'],
    ['a tests-only commit', facts([M('tests/test_a.py'), { status: 'A', path: 'tests/test_b.py' }]), 'no-code-change'],
    ['a docs-only commit', facts([M('README.md'), M('docs/x.md')]), 'no-test-change'],
  ])('skips %s', (_what, input, reason) => {
    expect(classifyCommit(input)).toMatchObject({ status: 'skip', reason });
  });

  it('keeps a fix with its test: code files (deleted too) and the test files it adds or modifies', () => {
    const verdict = classifyCommit(facts([M('lib/a.py'), { status: 'D', path: 'lib/old.py' }, M('tests/test_a.py'), { status: 'A', path: 'tests/test_new.py' }, { status: 'D', path: 'tests/test_gone.py' }, M('setup.cfg')]));
    expect(verdict).toEqual({
      status: 'candidate',
      candidate: { sha: 'c'.repeat(40), parent: P, codeFiles: ['lib/a.py', 'lib/old.py'], testFiles: ['tests/test_a.py', 'tests/test_new.py'] },
    });
  });
});

describe('reasonOfFailedCheck', () => {
  it.each([
    ['failing-tests', 'tests-do-not-fail-before'],
    ['breadth', 'too-broad'],
    ['order-independence', 'flaky'],
    ['existence', 'does-not-apply'],
    ['min-files', 'does-not-apply'],
    ['concealment', 'rejected'],
    ['inverse-redundancy', 'rejected'],
  ])('%s → %s', (check, reason) => {
    expect(reasonOfFailedCheck(check)).toBe(reason);
  });

  it.each([
    [{ failing: 0, ranAndFailed: 0, minFailing: 1 }, 'tests-do-not-fail-before'],
    [{ failing: 357, ranAndFailed: 0, minFailing: 1 }, 'tests-cannot-run-before'],
    [{ failing: 3, ranAndFailed: 2, minFailing: 1 }, 'tests-do-not-fail-before'],
  ])('failing-tests with evidence %j → %s', (evidence, reason) => {
    expect(reasonOfFailedCheck('failing-tests', evidence)).toBe(reason);
  });
});
