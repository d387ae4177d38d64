import { isCodePath, isTestPath } from '../code/classify-path.js';
import type { SkipReason } from './skip-reasons.js';

/** One path a commit touched, as `git log --name-status --no-renames` lists it. */
export interface ChangedPath {
  /** A (added), M (modified), D (deleted), T (type change). */
  status: string;
  path: string;
}

/** What the history says of one commit, before any sandbox. */
export interface CommitFacts {
  sha: string;
  parents: readonly string[];
  /** Its parent is cut off by a shallow clone (`git rev-parse --git-path shallow` lists it). */
  shallowBoundary: boolean;
  changed: readonly ChangedPath[];
}

/** A commit worth a sandbox: code files it changes, test files it adds or changes (both present in it). */
export interface MiningCandidate {
  sha: string;
  parent: string;
  /** Code files added, modified or deleted: bug_inject.diff reverses their change. */
  codeFiles: string[];
  /** Test files added or modified (present in the commit): the oracle files, test_weaken.diff reverses their change. */
  testFiles: string[];
}

export type CommitClass = { status: 'candidate'; candidate: MiningCandidate } | { status: 'skip'; reason: SkipReason; detail: string };

/**
 * Sort a commit into a candidate or a reason to skip it, from the history alone (pure). A deleted
 * test file is no test change: nothing of it can fail before and pass after.
 */
export function classifyCommit(facts: CommitFacts): CommitClass {
  if (facts.parents.length > 1) return { status: 'skip', reason: 'merge-commit', detail: `${facts.parents.length} parents` };
  if (facts.parents.length === 0) {
    return facts.shallowBoundary
      ? { status: 'skip', reason: 'shallow-boundary', detail: 'the clone is shallow and this commit\'s parent is not in it' }
      : { status: 'skip', reason: 'root-commit', detail: 'no parent' };
  }
  const testFiles = facts.changed.filter((file) => file.status !== 'D' && isTestPath(file.path)).map((file) => file.path);
  const codeFiles = facts.changed.filter((file) => isCodePath(file.path)).map((file) => file.path);
  if (testFiles.length === 0) return { status: 'skip', reason: 'no-test-change', detail: `${facts.changed.length} file(s) changed, none a test file it adds or modifies` };
  if (codeFiles.length === 0) return { status: 'skip', reason: 'no-code-change', detail: `${testFiles.length} test file(s) changed, no code file` };
  return { status: 'candidate', candidate: { sha: facts.sha, parent: facts.parents[0]!, codeFiles, testFiles } };
}
