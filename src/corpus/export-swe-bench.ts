import { invertUnifiedDiff } from '../code/invert-diff.js';
import { isDiffParseError } from '../code/diff-parse-error.js';
import type { ImageRecipe } from '../config/repos-schema.js';
import { solverStatement } from '../roles/role-prompts.js';
import { REPO_DIR } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import { evalScript } from './eval-script.js';
import type { StoredBug } from './read-stored-bug.js';

/**
 * One SWE-bench instance (method §2), runnable: clone `bundle`, check out `base_commit` (the
 * Solver's view: O + bug_inject + test_weaken, one parentless commit), apply `test_patch` (the
 * oracle tests back) and run `eval_script` → FAIL_TO_PASS fail; apply `patch` too → FAIL_TO_PASS
 * and PASS_TO_PASS pass. SWE-bench's own fields come first; the rest are ssr's.
 *
 * Changed from the first export format: `repo` was the repo id (now `repo_id`) and is now
 * owner/name; `base_commit` was O (now `original_commit`) and is now the buggy instance commit;
 * FAIL_TO_PASS / PASS_TO_PASS were arrays and are now JSON-encoded lists, as SWE-bench stores
 * them ({@link instanceTestLists} reads both).
 */
export interface SweBenchInstance {
  /** `<repo id>__<bug id>`. */
  instance_id: string;
  /** owner/name: repos.yaml's `repo`, else `ssr-local/<repo id>`. */
  repo: string;
  /** The instance commit in `bundle`: O + bug_inject + test_weaken, no parents. */
  base_commit: string;
  /** The fix: inverse of bug_inject.diff (code files only). */
  patch: string;
  /** The oracle tests back: inverse of test_weaken.diff. */
  test_patch: string;
  /** method §4's Solver statement around `test_patch`. */
  problem_statement: string;
  /** Always empty: the Solver gets no hints. */
  hints_text: string;
  /** JSON list: tests passing on O and failing with the bug (the validator's F). */
  FAIL_TO_PASS: string;
  /** JSON list: tests passing both on O and with the bug. */
  PASS_TO_PASS: string;
  /** Instances of one version share an environment: O's first 12 hex digits. */
  version: string;
  /** O, in `environment_bundle`: the commit the environment (image) is built from. */
  environment_setup_commit: string;
  /** When the bug was stored (its validation.json), ISO 8601. */
  created_at: string;
  repo_id: string;
  original_commit: string;
  /** Paths relative to the JSONL file's folder. */
  bundle: string;
  environment_bundle: string;
  /** How the environment is built (repos.yaml `image`): Debian packages and setup commands run in `repo_dir` at O. */
  image: ImageRecipe;
  /** Where the repository must be checked out: test_script.sh runs there. */
  repo_dir: string;
  /** Bash: runs test_script.sh and test_parser.py, prints the JSON status map. */
  eval_script: string;
  lineage: { order: 1 | 2; parentBugId: string | null };
  strategy: string;
  bug_patch: string;
  test_files: string[];
  test_script: string;
  test_parser: string;
  /** From solves.json; null when the bug was never solved against. */
  solve_rate: number | null;
  /** A real bug mined from history (ssr mine): the fix commit's message, whatever `problem_statement` is. */
  commit_message?: string;
}

/**
 * Where `problem_statement` comes from: the Solver statement of method §4 (the test change), or for a
 * mined real bug its fix commit's message (a bug without one keeps the Solver statement).
 */
export type ProblemStatementSource = 'solver' | 'commit-message';

/** Where a bug's instance lives: what {@link toSweBenchInstance} cannot read from the bug dir. */
export interface InstancePlace {
  repo: string;
  baseCommit: string;
  createdAt: string;
  bundle: string;
  environmentBundle: string;
  image: ImageRecipe;
  testTimeoutS: number;
}

function invert(bug: StoredBug, file: string, diff: string): string {
  try {
    return invertUnifiedDiff(diff);
  } catch (error) {
    if (!isDiffParseError(error)) throw error;
    throw new EngineError('artifact-invalid-input', `${bug.dir}/${file}: cannot invert it: ${error.message}`);
  }
}

/** The instance id of a stored bug. */
export function sweBenchInstanceId(bug: StoredBug): string {
  return `${bug.metadata.repo}__${bug.id}`;
}

/** A valid stored bug as a SWE-bench instance. */
export function toSweBenchInstance(bug: StoredBug, place: InstancePlace, statement: ProblemStatementSource = 'solver'): SweBenchInstance {
  const { artifact, metadata, validation } = bug;
  const message = metadata.mined?.message;
  return {
    instance_id: sweBenchInstanceId(bug),
    repo: place.repo,
    base_commit: place.baseCommit,
    patch: invert(bug, 'bug_inject.diff', artifact.bugInject),
    test_patch: invert(bug, 'test_weaken.diff', artifact.testWeaken),
    problem_statement: statement === 'commit-message' && message !== undefined ? message : solverStatement(artifact),
    hints_text: '',
    FAIL_TO_PASS: JSON.stringify(validation.failToPass),
    PASS_TO_PASS: JSON.stringify(validation.passToPass),
    version: metadata.commit.slice(0, 12),
    environment_setup_commit: metadata.commit,
    created_at: place.createdAt,
    repo_id: metadata.repo,
    original_commit: metadata.commit,
    bundle: place.bundle,
    environment_bundle: place.environmentBundle,
    image: place.image,
    repo_dir: REPO_DIR,
    eval_script: evalScript(artifact.testScript, artifact.testParser, place.testTimeoutS),
    lineage: { order: metadata.order, parentBugId: metadata.parentBugId },
    strategy: metadata.strategy,
    bug_patch: artifact.bugInject,
    test_files: artifact.testFiles,
    test_script: artifact.testScript,
    test_parser: artifact.testParser,
    solve_rate: bug.solves?.solveRate ?? null,
    ...(message !== undefined ? { commit_message: message } : {}),
  };
}

/** FAIL_TO_PASS / PASS_TO_PASS of an instance line of either format (JSON-encoded lists now, arrays before). */
export function instanceTestLists(instance: { FAIL_TO_PASS: unknown; PASS_TO_PASS: unknown }): { failToPass: string[]; passToPass: string[] } {
  const list = (value: unknown, field: string): string[] => {
    const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
    if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) throw new EngineError('artifact-invalid-input', `${field}: expected a list of test ids`);
    return parsed;
  };
  return { failToPass: list(instance.FAIL_TO_PASS, 'FAIL_TO_PASS'), passToPass: list(instance.PASS_TO_PASS, 'PASS_TO_PASS') };
}
