import { invertUnifiedDiff } from '../code/invert-diff.js';
import { isDiffParseError } from '../code/diff-parse-error.js';
import { EngineError } from '../util/engine-error.js';
import type { StoredBug } from './read-stored-bug.js';

/**
 * One SWE-bench-style instance (SPEC §2). The environment is `base_commit` + `bug_patch` +
 * the inverse of `test_patch` (the weakened tests the Solver saw); `patch` is the gold fix;
 * `test_patch` restores the oracle tests; FAIL_TO_PASS / PASS_TO_PASS come from validation.
 * `test_script`, `test_parser` and `test_files` (beyond SWE-bench's fields) make it runnable.
 */
export interface SweBenchInstance {
  instance_id: string;
  repo: string;
  base_commit: string;
  /** Inverse of bug_inject.diff. */
  patch: string;
  /** Inverse of test_weaken.diff. */
  test_patch: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  lineage: { order: 1 | 2; parentBugId: string | null };
  strategy: string;
  bug_patch: string;
  test_files: string[];
  test_script: string;
  test_parser: string;
  /** From solves.json; null when the bug was never solved against. */
  solve_rate: number | null;
}

function invert(bug: StoredBug, file: string, diff: string): string {
  try {
    return invertUnifiedDiff(diff);
  } catch (error) {
    if (!isDiffParseError(error)) throw error;
    throw new EngineError('artifact-invalid-input', `${bug.dir}/${file}: cannot invert it: ${error.message}`);
  }
}

/** A valid stored bug as a SWE-bench-style instance. */
export function toSweBenchInstance(bug: StoredBug): SweBenchInstance {
  const { artifact, metadata, validation } = bug;
  return {
    instance_id: `${metadata.repo}__${bug.id}`,
    repo: metadata.repo,
    base_commit: metadata.commit,
    patch: invert(bug, 'bug_inject.diff', artifact.bugInject),
    test_patch: invert(bug, 'test_weaken.diff', artifact.testWeaken),
    FAIL_TO_PASS: validation.failToPass,
    PASS_TO_PASS: validation.passToPass,
    lineage: { order: metadata.order, parentBugId: metadata.parentBugId },
    strategy: metadata.strategy,
    bug_patch: artifact.bugInject,
    test_files: artifact.testFiles,
    test_script: artifact.testScript,
    test_parser: artifact.testParser,
    solve_rate: bug.solves?.solveRate ?? null,
  };
}

/** The JSONL text of instances, one per line. */
export function formatSweBenchJsonl(bugs: readonly StoredBug[]): string {
  return bugs.map((bug) => `${JSON.stringify(toSweBenchInstance(bug))}\n`).join('');
}
