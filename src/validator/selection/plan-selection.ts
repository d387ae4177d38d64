import { isGuardedRun, toleratedTampering } from '../../harness/guard-report.js';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { SandboxProvider, SandboxTemplate } from '../../sandbox/sandbox.js';
import { isEngineError } from '../../util/engine-error.js';
import type { BaselineCache } from '../baseline-cache.js';
import type { StateRunner } from '../state-runs.js';
import { readPythonSources } from './read-sources.js';
import { coverageSelection } from './coverage-plan.js';
import { jsCoverageSelection, jsTestFilesOf } from './js-coverage-plan.js';
import { pytestIgnoreOptions, selectTests, type TestSelection } from './select-tests.js';

/** `--select-tests` / repos.yaml `test_selection.mode`. */
export type SelectTestsMode = 'auto' | 'always' | 'never';

/** What a selection was made from: O's per-test line coverage, or the import graph. */
export type SelectionBasis = 'coverage' | 'imports';

/**
 * How a validation chose its tests (ValidationResult.selection): `selected` ran only the tests
 * relevant to the bug (`by` says how they were found) and its audit found nothing missed; `full`
 * ran the whole suite, and says why; `fallback` selected, the audit found tests the selection got
 * wrong, and the verdict is the full suite's.
 */
export type SelectionOutcome =
  | { status: 'selected'; by: SelectionBasis; keptTestFiles: number; testFiles: number }
  | { status: 'full'; reason: string }
  | { status: 'fallback'; reason: string; missed: string[] };

export interface SelectionPlanInput {
  repo: ResolvedRepo;
  template: SandboxTemplate;
  provider: SandboxProvider;
  baselines: BaselineCache;
  bugFiles: string[];
  /** bug_inject.diff: its changed lines are looked up in O's coverage. */
  bugInject: string;
  testScript: string;
  testFiles: string[];
  testTimeoutMs: number;
  mode: SelectTestsMode;
  /** Told when O's traced run starts (coverageSelection). */
  onTrace?: () => void;
  /** The full runner: its O run decides `auto` and tells whether pytest ran under the guard. */
  full: StateRunner;
}

export type SelectionPlan =
  | { status: 'full'; reason: string }
  | { status: 'selected'; by: SelectionBasis; keptTestFiles: number; testFiles: number; env: Record<string, string>; testScript?: string };

/**
 * Whether this bug's states run selected tests, and which: after O's full run (cached across the
 * bugs of a run). Selection needs pytest (it leaves files out with `--ignore`), recognised by the
 * guard's records. The test files that execute the changed lines in O's traced run come first, on
 * any suite (`auto` and `always`); when the coverage cannot say (coverageSelection's reasons), the
 * import graph selects where `always` asks or `auto` finds the clean suite at least `above_s` long.
 * A JS suite (its ids `file > names`) selects by V8 coverage only (jsCoverageSelection): its states
 * run a restricted copy of the runner's script (`testScript`) instead of an environment variable.
 */
export async function planSelection(input: SelectionPlanInput): Promise<SelectionPlan> {
  if (input.mode === 'never') return { status: 'full', reason: 'test selection is off (never)' };
  if (input.bugFiles.length === 0) return { status: 'full', reason: 'bug_inject.diff changes no file' };
  const original = await input.full.get('original');
  if (original.status !== 'ran' || original.report.timedOut || original.report.parserFailure) return { status: 'full', reason: 'the original run gave no clean status map' };
  const jsFiles = jsTestFilesOf(original.report.statuses);
  if (jsFiles !== null) {
    const byCoverage = await jsCoverageSelection({ ...input, listed: input.testFiles, original: original.report, testTimeoutS: input.testTimeoutMs / 1000 }, jsFiles);
    if (byCoverage.status === 'full') return byCoverage;
    return { status: 'selected', by: 'coverage', keptTestFiles: byCoverage.keptTestFiles, testFiles: byCoverage.testFiles, env: {}, testScript: byCoverage.testScript };
  }
  if (!isGuardedRun(original.report.guard, original.report.statuses, toleratedTampering([original.report.guard]))) return { status: 'full', reason: 'the tests do not run under pytest (with the guard): no way to leave test files out' };
  const byCoverage = await coverageSelection({
    ...input,
    listed: input.testFiles,
    original: original.report,
    testTimeoutS: input.testTimeoutMs / 1000,
  });
  if (byCoverage.status === 'selected') return selectedPlan('coverage', byCoverage);
  const aboveMs = (input.repo.testSelection?.above_s ?? 30) * 1000;
  if (input.mode === 'auto' && original.report.durationMs < aboveMs) {
    return { status: 'full', reason: `${byCoverage.reason}; the clean suite takes ${(original.report.durationMs / 1000).toFixed(1)} s, under the ${aboveMs / 1000} s threshold of the import-graph selection` };
  }
  let sources: ReadonlyMap<string, string>;
  try {
    sources = await input.baselines.getOrRun(`py-sources:${input.template.ref}`, () => readPythonSources(input.provider, input.template));
  } catch (error) {
    if (!isEngineError(error)) throw error;
    return { status: 'full', reason: `could not read the Python sources: ${error.message}` };
  }
  const selection = selectTests({ sources, changed: input.bugFiles, listed: input.testFiles });
  if (selection.status === 'full') return { status: 'full', reason: `${selection.reason} (${byCoverage.reason})` };
  return selectedPlan('imports', selection);
}

function selectedPlan(by: SelectionBasis, selection: Extract<TestSelection, { status: 'selected' }>): SelectionPlan {
  return { status: 'selected', by, keptTestFiles: selection.keptTestFiles, testFiles: selection.testFiles, env: { PYTEST_ADDOPTS: pytestIgnoreOptions(selection.ignore) } };
}
