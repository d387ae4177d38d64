import { parseUnifiedDiff } from '../../code/unified-diff.js';
import type { StatusMap } from '../../harness/test-report.js';
import type { SandboxProvider, SandboxTemplate } from '../../sandbox/sandbox.js';
import { isEngineError } from '../../util/engine-error.js';
import { BaselineCache } from '../baseline-cache.js';
import { changedLines } from './changed-lines.js';
import { selectByCoverage } from './coverage-selection.js';
import type { TestSelection } from './select-tests.js';
import { pytestArgsOf, traceOriginal } from './trace-original.js';

export interface CoveragePlanInput {
  provider: SandboxProvider;
  template: SandboxTemplate;
  baselines: BaselineCache;
  bugInject: string;
  testScript: string;
  listed: readonly string[];
  /** O's full run: its statuses say which test files the suite runs; its time bounds the trace's. */
  original: { statuses: StatusMap; durationMs: number };
  /** The repo's test time limit, s: the trace gets up to three times it. */
  testTimeoutS: number;
  /** Told when the traced run starts (not when the cache answers): the episode's count of runs. */
  onTrace?: () => void;
}

/**
 * The bug's tests from O's per-test-file line coverage (selectByCoverage), or the whole suite and
 * the one reason why. The traced run of O is made once per image and pytest arguments of the
 * test script (the BaselineCache, like O's runs) and shared by every bug of the run.
 */
export async function coverageSelection(input: CoveragePlanInput): Promise<TestSelection> {
  const ids = Object.keys(input.original.statuses);
  if (ids.length === 0 || !ids.every((id) => id.includes('::'))) return { status: 'full', reason: "coverage: the clean run's test ids are not pytest node ids" };
  const ranFiles = [...new Set(ids.map((id) => id.slice(0, id.indexOf('::'))))].sort();
  // A script that runs only its listed files (the procedural Injector's) has nothing to leave out: no trace.
  const listed = new Set(input.listed);
  if (ranFiles.every((file) => listed.has(file))) return { status: 'full', reason: `coverage: the suite runs only test_files.txt's ${ranFiles.length} file(s), which every state runs` };
  const diff = parseUnifiedDiff(input.bugInject);
  const opaque = diff.touchedPaths.find((path) => !path.endsWith('.py'));
  if (opaque !== undefined) return { status: 'full', reason: `coverage: bug_inject.diff changes ${opaque}, which is not Python` };
  const changed = changedLines(diff);
  if (changed.status !== 'ok') return { status: 'full', reason: `coverage: ${changed.reason}` };
  // Tracing slows a suite several times over; a run that takes longer is not worth waiting for.
  const limitS = Math.min(3 * input.testTimeoutS, Math.max(60, (10 * input.original.durationMs) / 1000));
  const key = traceKey(input.template.ref, input.testScript);
  let read;
  try {
    read = await input.baselines.getOrRun(key, () => {
      input.onTrace?.();
      return traceOriginal(input.provider, input.template, input.testScript, limitS);
    });
  } catch (error) {
    if (!isEngineError(error)) throw error;
    return { status: 'full', reason: `coverage: tracing the clean suite failed: ${error.message}` };
  }
  if (read.status !== 'ok') return { status: 'full', reason: `coverage: ${read.reason}` };
  const selection = selectByCoverage({ coverage: read.coverage, changed: changed.files, ranFiles, listed: input.listed });
  return selection.status === 'full' ? { status: 'full', reason: `coverage: ${selection.reason}` } : selection;
}

/**
 * The cache key of O's traced run: what the trace runs (the image and the script's pytest
 * arguments), not the whole script. A model's scripts for different bugs differ in words the trace
 * never reads, and one traced run per script would cost more than the restricted runs save.
 */
export function traceKey(imageRef: string, testScript: string): string {
  return `coverage:${BaselineCache.key([imageRef, ...pytestArgsOf(testScript)])}`;
}
