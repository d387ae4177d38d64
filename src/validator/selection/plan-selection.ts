import { isGuardedRun } from '../../harness/guard-report.js';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { SandboxProvider, SandboxTemplate } from '../../sandbox/sandbox.js';
import { isEngineError } from '../../util/engine-error.js';
import type { BaselineCache } from '../baseline-cache.js';
import type { StateRunner } from '../state-runs.js';
import { readPythonSources } from './read-sources.js';
import { pytestIgnoreOptions, selectTests } from './select-tests.js';

/** `--select-tests` / repos.yaml `test_selection.mode`. */
export type SelectTestsMode = 'auto' | 'always' | 'never';

/**
 * How a validation chose its tests (ValidationResult.selection): `selected` ran only the tests
 * relevant to the bug and its audit found nothing missed; `full` ran the whole suite, and says
 * why; `fallback` selected, the audit found tests the selection got wrong, and the verdict is the
 * full suite's.
 */
export type SelectionOutcome =
  | { status: 'selected'; keptTestFiles: number; testFiles: number }
  | { status: 'full'; reason: string }
  | { status: 'fallback'; reason: string; missed: string[] };

export interface SelectionPlanInput {
  repo: ResolvedRepo;
  template: SandboxTemplate;
  provider: SandboxProvider;
  baselines: BaselineCache;
  bugFiles: string[];
  testFiles: string[];
  mode: SelectTestsMode;
  /** The full runner: its O run decides `auto` and tells whether pytest ran under the guard. */
  full: StateRunner;
}

export type SelectionPlan = { status: 'full'; reason: string } | { status: 'selected'; keptTestFiles: number; testFiles: number; env: Record<string, string> };

/**
 * Whether this bug's states run selected tests, and which: after O's full run (cached across the
 * bugs of a run), so `auto` compares the real clean-suite time with the threshold. Selection
 * needs pytest (it leaves files out with `--ignore`), recognised by the guard's records.
 */
export async function planSelection(input: SelectionPlanInput): Promise<SelectionPlan> {
  if (input.mode === 'never') return { status: 'full', reason: 'test selection is off (never)' };
  if (input.bugFiles.length === 0) return { status: 'full', reason: 'bug_inject.diff changes no file' };
  const original = await input.full.get('original');
  if (original.status !== 'ran' || original.report.timedOut || original.report.parserFailure) return { status: 'full', reason: 'the original run gave no clean status map' };
  const aboveMs = (input.repo.testSelection?.above_s ?? 30) * 1000;
  if (input.mode === 'auto' && original.report.durationMs < aboveMs) {
    return { status: 'full', reason: `the clean suite takes ${(original.report.durationMs / 1000).toFixed(1)} s, under the ${aboveMs / 1000} s threshold` };
  }
  if (!isGuardedRun(original.report.guard, original.report.statuses)) return { status: 'full', reason: 'the tests do not run under pytest (with the guard): no way to leave test files out' };
  let sources: ReadonlyMap<string, string>;
  try {
    sources = await input.baselines.getOrRun(`py-sources:${input.template.ref}`, () => readPythonSources(input.provider, input.template));
  } catch (error) {
    if (!isEngineError(error)) throw error;
    return { status: 'full', reason: `could not read the Python sources: ${error.message}` };
  }
  const selection = selectTests({ sources, changed: input.bugFiles, listed: input.testFiles });
  if (selection.status === 'full') return selection;
  return { status: 'selected', keptTestFiles: selection.keptTestFiles, testFiles: selection.testFiles, env: { PYTEST_ADDOPTS: pytestIgnoreOptions(selection.ignore) } };
}
