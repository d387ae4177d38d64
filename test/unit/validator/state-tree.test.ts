import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';
import type { StateKey } from '../../../src/validator/state-runs.js';
import { ORIGINAL_TREE, stateTrees } from '../../../src/validator/state-tree.js';
import { TempGitRepo } from '../code/temp-git-repo.js';

const A = 'def a(x):\n    return x + 1\n';
const B = 'def b(x):\n    return x * 2\n';
const TESTS = 'from pkg.a import a\n\n\ndef test_a():\n    assert a(1) == 2\n\n\ndef test_b():\n    assert a(2) == 3\n';

let repo: TempGitRepo;

function diffOf(edit: (repo: TempGitRepo) => void): string {
  edit(repo);
  const diff = repo.diff();
  repo.reset();
  return diff;
}

function artifact(bugInject: string, testWeaken: string): BugArtifact {
  return { bugInject, testWeaken, testFiles: ['tests/test_a.py'], testScript: 'pytest\n', testParser: 'print("{}")\n' };
}

/** The real tree of a state: O, then exactly what the validator's preparation does. */
function realTree(of: BugArtifact, key: StateKey): string {
  if (key !== 'original' && key !== 'original-repeat') repo.apply(of.bugInject);
  if (key === 'weakened') repo.apply(of.testWeaken);
  if (key.startsWith('inverse:')) repo.git('checkout', 'HEAD', '--', key.slice('inverse:'.length));
  const tree = repo.tree();
  repo.reset();
  return tree;
}

const weakenOf = (): string => diffOf((r) => r.write('tests/test_a.py', TESTS.replace('    assert a(1) == 2\n', '    pass\n')));
const editA = (r: TempGitRepo): void => r.write('pkg/a.py', A.replace('x + 1', 'x - 1'));
const editB = (r: TempGitRepo): void => r.write('pkg/b.py', B.replace('x * 2', 'x * 3'));

beforeAll(() => {
  repo = TempGitRepo.create({ 'pkg/__init__.py': '', 'pkg/a.py': A, 'pkg/b.py': B, 'tests/test_a.py': TESTS });
});
afterAll(() => repo.dispose());

describe('stateTrees: the content identity of the tree each state runs on', () => {
  it('gives two states the same id exactly when their real trees are equal (states of two artifacts)', () => {
    const one = artifact(diffOf(editA), weakenOf());
    const two = artifact(
      diffOf((r) => {
        editA(r);
        editB(r);
      }),
      weakenOf(),
    );
    const states: [BugArtifact, StateKey][] = [];
    for (const of of [one, two]) {
      for (const key of ['original', 'buggy', 'weakened', 'inverse:pkg/a.py'] as const) states.push([of, key]);
    }
    states.push([two, 'inverse:pkg/b.py']);
    const ids = states.map(([of, key]) => stateTrees(of)(key));
    const trees = states.map(([of, key]) => realTree(of, key));
    for (let i = 0; i < states.length; i += 1) {
      for (let j = 0; j < states.length; j += 1) {
        expect(ids[i] === ids[j], `${states[i]![1]} vs ${states[j]![1]}`).toBe(trees[i] === trees[j]);
      }
    }
    // The case the validator saves a sandbox on: a one-file bug with that file reverted is O.
    expect(stateTrees(one)('inverse:pkg/a.py')).toBe(ORIGINAL_TREE);
    // And a two-file bug with one file reverted is the other file's one-file bug.
    expect(stateTrees(two)('inverse:pkg/a.py')).toBe(stateTrees(artifact(diffOf(editB), weakenOf()))('buggy'));
  });

  it.each([
    ['a renamed file (reverting one path is not dropping a section)', (): BugArtifact => artifact(diffOf((r) => r.move('pkg/a.py', 'pkg/c.py')), weakenOf()), 'inverse:pkg/a.py'],
    ['an empty test_weaken.diff', (): BugArtifact => artifact(diffOf(editA), ''), 'weakened'],
    ['a bug_inject.diff that is not a diff', (): BugArtifact => artifact('not a diff\n', weakenOf()), 'buggy'],
  ] as const)('leaves the state to run for itself for %s', (_label, make, key) => {
    const trees = stateTrees(make());
    expect(trees(key)).toBeUndefined();
    expect(trees('original')).toBe(ORIGINAL_TREE);
  });
});
