import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { Thresholds } from '../config/repos-schema.js';
import type { EngineError } from '../util/engine-error.js';
import type { InverseRedundancyMode } from './inverse-redundancy-mode.js';
import type { CheckScript } from './script-runs.js';
import type { StateKey, StateRun } from './state-runs.js';

/**
 * Outcome of one consistency check. `fail` rejects the artifact (reward −1); `error` means the
 * check could not be judged because the infrastructure failed — never the artifact's fault, so
 * the validation is discarded or retried, not scored.
 */
export type CheckStatus = 'pass' | 'fail' | 'error';

/** The checks of method §3 and issue 14's bug-quality checks, by their exact names, in run order. */
export const CHECK_NAMES = [
  'existence',
  'parser',
  'test-script',
  'min-files',
  'failing-tests',
  'breadth',
  'concealment',
  'inverse-redundancy',
  'order-independence',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/** What a check reports: always a reason a person can read, and the evidence behind it (counts, test ids, paths). */
export interface CheckResult {
  name: CheckName;
  status: CheckStatus;
  reason: string;
  evidence: Record<string, unknown>;
  /**
   * Tests of F a passing check found to be no real FAIL_TO_PASS tests (they pass alone or in
   * another order on B): the verdict's `failToPass` leaves them out.
   */
  notFailToPass?: string[];
  durationMs: number;
}

/** Which diff of the artifact a state applies last. */
export type ArtifactDiffName = 'bug_inject.diff' | 'test_weaken.diff';

/**
 * Whether a state could be prepared from O: `applied` when every diff it needs applied with plain
 * `git apply` (no 3-way, no fuzz: validation judges the diff the Injector wrote, not a repaired
 * one); `apply-failed` names the first diff that did not; `error` is infrastructure.
 */
export type ApplyStateOutcome =
  | { status: 'applied' }
  | { status: 'apply-failed'; diff: ArtifactDiffName; detail: string }
  | { status: 'error'; error: EngineError };

/**
 * Everything a check may ask about the artifact under validation. The validator builds one per
 * artifact; the sandbox work behind it is lazy and memoised, so a check asks freely and the
 * first check that needs a fact pays for it.
 *
 * - `originalFiles()` — every file of O, repo-relative (`git ls-files` of the pinned commit,
 *   `/`-separated, no `./`). One sandbox exec, cached.
 * - `originalDoctestFiles()` — O's Python files that hold a `>>>`, with their text: what the
 *   hunk classification reads (doctest examples are test code inside a code file). Cached per run.
 * - `applyState(state)` — prepares B (`'buggy'`: O + bug_inject.diff) or W (`'weakened'`:
 *   B + test_weaken.diff) and says whether the diffs applied cleanly. The validator may answer
 *   from a cheap `git apply --check` sandbox or from the same preparation `run()` does; the
 *   answer must agree with what `run()` of that state would do. `existence` is the only check
 *   that reads it: the later checks can then assume every state they run was prepared.
 * - `run(state)` — prepare a state in a fresh sandbox and run test_script.sh + test_parser.py
 *   on it (method §3 "run"); each state runs at most once per artifact (O twice:
 *   `original` and `original-repeat`, for flakiness).
 * - `runScript(name, script)` — a check's own script and parser on B (O + bug_inject.diff) in a
 *   fresh sandbox, once per name: a focused run the artifact's script cannot give.
 */
export interface ValidationContext {
  readonly artifact: BugArtifact;
  readonly thresholds: Thresholds;
  originalFiles(): Promise<ReadonlySet<string>>;
  originalDoctestFiles(): Promise<ReadonlyMap<string, string>>;
  applyState(state: 'buggy' | 'weakened'): Promise<ApplyStateOutcome>;
  run(state: StateKey): Promise<StateRun>;
  runScript(name: string, script: CheckScript): Promise<StateRun>;
  /** How inverse redundancy treats a file that fixes nothing alone (see InverseRedundancyMode); absent: `enforce`. */
  readonly inverseRedundancy?: InverseRedundancyMode;
}

/** One check of method §3: a name and a judgement over the context. Throws only for engine bugs. */
export interface ConsistencyCheck {
  name: CheckName;
  run(ctx: ValidationContext): Promise<Omit<CheckResult, 'durationMs' | 'name'>>;
  /**
   * Optional: start early, while the checks before this one still wait on their runs, the run of
   * its own that `run` will ask for, through the same context calls (so `run` reads that very run,
   * memoised). Only a schedule, never a verdict: the validator calls it on the parallel path and
   * tears down what it started when an earlier check ends the validation.
   */
  prefetch?(ctx: ValidationContext): Promise<void>;
}
