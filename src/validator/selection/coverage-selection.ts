import { OUTSIDE_TESTS, type TestCoverage } from '../../coverage/test-coverage.js';
import type { ChangedLines } from './changed-lines.js';
import { pytestIgnoreOptions, type TestSelection } from './select-tests.js';

/** PYTEST_ADDOPTS is one environment string; far below the kernel's 128 KiB per string. */
const MAX_ADDOPTS_BYTES = 64 * 1024;

export interface CoverageSelectionInput {
  /** Which test files executed each line of O (the validator's traced run of O). */
  coverage: TestCoverage;
  /** The O lines bug_inject.diff changes, per file (changedLines). */
  changed: ReadonlyMap<string, ChangedLines>;
  /** The test files O's full run ran tests of (pytest node ids' paths). */
  ranFiles: readonly string[];
  /** test_files.txt: always run (test_weaken.diff edits them, and B's failing tests are in them). */
  listed: readonly string[];
  /** What a line marked {@link OUTSIDE_TESTS} ran in, for the reason (the Python trace's words by default). */
  outside?: string;
}

/**
 * The test files whose tests execute a changed line of O: a test that executes none of them runs
 * on every state of the bug exactly as on O (the code it runs is O's), so its status is O's. A
 * deleted or rewritten line is looked up itself; an insertion, or a line no line event marks
 * (`else:`, a statement's continuation line), by the nearest traced lines on either side, which
 * are what runs when control reaches that place. Full, with the reason, when a changed line also
 * ran outside any test (import time, a fixture asked for at run time: it reaches every test; a broad
 * fixture's set-up lines belong to every file using it, trace_lines.py), when a changed file
 * never ran, or when nothing would be left out. What this cannot see (state one test leaves for
 * another, a cache filled by the first caller, a subprocess) is what the audit is for.
 */
export function selectByCoverage(input: CoverageSelectionInput): TestSelection {
  const { coverage } = input;
  const missing = input.ranFiles.find((file) => !coverage.testFiles.has(file));
  if (missing !== undefined) return { status: 'full', reason: `the traced run did not run ${missing}, which the clean run ran` };
  const kept = new Set(input.listed);
  for (const [file, lines] of input.changed) {
    const perLine = coverage.lines.get(file);
    if (!perLine || perLine.size === 0) return { status: 'full', reason: `no test executes any line of ${file}` };
    for (const line of linesToLookUp(perLine, lines)) {
      const contexts = perLine.get(line)!;
      if (contexts.has(OUTSIDE_TESTS)) return { status: 'full', reason: `${file}:${line} runs ${input.outside ?? 'outside any test (import time or session set-up)'}` };
      for (const context of contexts) kept.add(context);
    }
  }
  const ignore = input.ranFiles.filter((file) => !kept.has(file)).sort();
  if (ignore.length === 0) return { status: 'full', reason: `every one of the ${input.ranFiles.length} test file(s) executes the change` };
  if (ignore.some((path) => /['"\s\\]/.test(path))) return { status: 'full', reason: 'a path to leave out has a quote, a backslash or white space' };
  if (Buffer.byteLength(pytestIgnoreOptions(ignore)) > MAX_ADDOPTS_BYTES) return { status: 'full', reason: `${ignore.length} paths to leave out are too many for PYTEST_ADDOPTS` };
  return { status: 'selected', ignore, keptTestFiles: input.ranFiles.length - ignore.length, testFiles: input.ranFiles.length };
}

/** The traced lines that stand for a file's changes (see selectByCoverage). */
export function linesToLookUp(perLine: ReadonlyMap<number, unknown>, changed: ChangedLines): number[] {
  const traced = [...perLine.keys()].sort((a, b) => a - b);
  const out = new Set<number>();
  const around = (before: number, after: number): void => {
    const below = traced.filter((line) => line <= before).at(-1);
    const above = traced.find((line) => line >= after);
    if (below !== undefined) out.add(below);
    if (above !== undefined) out.add(above);
  };
  for (const line of changed.removed) {
    if (perLine.has(line)) out.add(line);
    else around(line - 1, line + 1);
  }
  for (const gap of changed.gaps) around(gap, gap + 1);
  return [...out].sort((a, b) => a - b);
}
