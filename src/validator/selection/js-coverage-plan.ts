import { parseUnifiedDiff } from '../../code/unified-diff.js';
import { jsRunnerSchema, type JsRunner } from '../../harness/js-test-files.js';
import { jsTestScript } from '../../harness/js-test-script.js';
import { testFilesForRunner } from '../../harness/repo-test-files.js';
import type { StatusMap } from '../../harness/test-report.js';
import { isEngineError } from '../../util/engine-error.js';
import { BaselineCache } from '../baseline-cache.js';
import { jsTestFileOf } from '../test-file-of.js';
import { changedLines } from './changed-lines.js';
import type { CoveragePlanInput } from './coverage-plan.js';
import { selectByCoverage } from './coverage-selection.js';
import { traceOriginalJs } from './trace-original-js.js';

/**
 * The runners whose ssr script runs every test file in a Node process of its own (node:test's
 * `--test`, the TAP runners' wrapper), so V8's per-process coverage tells the files apart; and
 * which load the files as written, so V8's offsets are the file's own.
 */
const PER_PROCESS: ReadonlySet<JsRunner> = new Set(['node-test', 'tape', 'node-tap']);

/** Why each other runner's suite gets no per-test-file coverage. */
const NO_COVERAGE: Partial<Record<JsRunner, string>> = {
  mocha: 'Mocha loads every test file into one process, so V8 coverage cannot tell the test files apart',
  jest: 'Jest transforms every module before running it, so V8 offsets are not the files\' own lines',
  vitest: 'Vitest transforms every module before running it, so V8 offsets are not the files\' own lines',
};

/** The test file of every id of a JS status map, or null when one is not a JS test id. */
export function jsTestFilesOf(statuses: StatusMap): string[] | null {
  const files = new Set<string>();
  for (const id of Object.keys(statuses)) {
    const file = jsTestFileOf(id);
    if (file === null) return null;
    files.add(file);
  }
  return files.size === 0 ? null : [...files].sort();
}

/** Which of ssr's JS runner scripts (src/harness/defaults/js/) the artifact's test script is, unchanged; null for any other script. */
export function jsRunnerOfScript(testScript: string): JsRunner | null {
  return jsRunnerSchema.options.find((runner) => testFilesForRunner(runner).testScript === testScript) ?? null;
}

/** What a JS plan reads: the same as the Python plan's (coverage-plan.ts). */
export type JsCoveragePlanInput = CoveragePlanInput;

/** A JS selection: the runner's script restricted to the kept test files, or the whole suite and why. */
export type JsCoveragePlan =
  | { status: 'selected'; testScript: string; keptTestFiles: number; testFiles: number }
  | { status: 'full'; reason: string };

/**
 * The JS bug's tests from O's per-test-file V8 line coverage (selectByCoverage, as for Python):
 * the states run ssr's script of the repo's runner restricted to the test files that execute a
 * changed line plus the listed ones (jsTestScript, which hands the runner those files itself).
 * The traced run of O is made once per image and script (the BaselineCache) and shared by every
 * bug of the run. Full, with one reason, where coverage cannot say: a script that is not one of
 * ssr's runner scripts, a runner without a process per test file or that transforms the code, a
 * changed file that is not plain JavaScript (TypeScript, JSX: no source maps are read), and
 * selectByCoverage's own reasons.
 */
export async function jsCoverageSelection(input: JsCoveragePlanInput, ranFiles: readonly string[]): Promise<JsCoveragePlan> {
  const listed = new Set(input.listed);
  if (ranFiles.every((file) => listed.has(file))) return full(`the suite runs only test_files.txt's ${ranFiles.length} file(s), which every state runs`);
  const runner = jsRunnerOfScript(input.testScript);
  if (runner === null) return full("the test script is not one of ssr's JS runner scripts, so there is no known way to run a subset of its test files");
  if (!PER_PROCESS.has(runner)) return full(NO_COVERAGE[runner] ?? `no per-test-file coverage for ${runner}`);
  const diff = parseUnifiedDiff(input.bugInject);
  const opaque = diff.touchedPaths.find((path) => !/\.[cm]?js$/.test(path));
  if (opaque !== undefined) return full(`bug_inject.diff changes ${opaque}, which is not plain JavaScript (V8's offsets are of the code Node runs; no source maps are read)`);
  const changed = changedLines(diff);
  if (changed.status !== 'ok') return full(changed.reason);
  const limitS = Math.min(3 * input.testTimeoutS, Math.max(60, (10 * input.original.durationMs) / 1000));
  let read;
  try {
    read = await input.baselines.getOrRun(jsTraceKey(input.template.ref, input.testScript), () => {
      input.onTrace?.();
      return traceOriginalJs(input.provider, input.template, { testScript: input.testScript, testFiles: ranFiles, limitS });
    });
  } catch (error) {
    if (!isEngineError(error)) throw error;
    return full(`tracing the clean JS suite failed: ${error.message}`);
  }
  if (read.status !== 'ok') return full(read.reason);
  const outside = 'in a Node process of no single test file (the runner\'s own, or a child process a test started)';
  const selection = selectByCoverage({ coverage: read.coverage, changed: changed.files, ranFiles, listed: input.listed, outside });
  if (selection.status === 'full') return full(selection.reason);
  const ignored = new Set(selection.ignore);
  // The listed files run on every state, as pytest still collects a listed file the clean run had no test of.
  const kept = [...new Set([...ranFiles.filter((file) => !ignored.has(file)), ...input.listed])].sort();
  return { status: 'selected', testScript: jsTestScript(runner, kept), keptTestFiles: selection.keptTestFiles, testFiles: selection.testFiles };
}

/** The cache key of O's V8-traced run: the image and the (runner's default) script it runs. */
export function jsTraceKey(imageRef: string, testScript: string): string {
  return `coverage-js:${BaselineCache.key([imageRef, testScript])}`;
}

function full(reason: string): JsCoveragePlan {
  return { status: 'full', reason: `coverage: ${reason}` };
}
