import { posix } from 'node:path';
import type { JsRunner } from '../../../harness/js-test-files.js';
import { testFilesForRunner } from '../../../harness/repo-test-files.js';
import { shellQuote, shellQuoteAll } from '../../../util/shell-quote.js';
import { jsTestScript } from '../../../harness/js-test-script.js';

/**
 * How the repo's tests run: pytest, or the stdlib's unittest when pytest is missing or collects
 * nothing. unittest ids are dotted module paths relative to `startDir` ('.' when the test
 * directories are packages; the test directory itself when they are not). A JS/TS repo runs with
 * the runner its prompt names, through ssr's script for it (ids: `file > describe > test`).
 */
export type TestSuite = { kind: 'pytest' } | { kind: 'unittest'; startDir: string } | { kind: 'js'; runner: JsRunner };

/** Environment of every run: wide lines so pytest's summary keeps the exception, and no .pyc in the repo. */
const RUN_ENV = 'env COLUMNS=250 PYTHONDONTWRITEBYTECODE=1';

/** pytest's extras for one search run: per-test durations (the clean run), and a stop after this many failures. */
export interface PytestExtras {
  durations?: boolean;
  maxFail?: number;
}

/**
 * The command that runs the suite (or only `files`) with one result line per test, as the
 * Injector runs it while searching: pytest goes on past collection errors so one broken module
 * does not hide the rest, and prints short tracebacks (summarize_run.py reads their lines).
 * `extras` apply to pytest only.
 */
export function searchCommand(suite: TestSuite, files?: readonly string[], extras: PytestExtras = {}): string {
  if (suite.kind === 'js') return `env NO_COLOR=1 bash -c ${shellQuote(jsScript(suite.runner, files))}`;
  if (suite.kind === 'pytest') {
    const flags = [extras.durations ? ' --durations=0' : '', extras.maxFail !== undefined ? ` --maxfail=${extras.maxFail}` : ''].join('');
    return `${RUN_ENV} python3 -m pytest -rA -p no:cacheprovider -q --tb=short --continue-on-collection-errors${flags} ${shellQuoteAll(files ?? [])}`.trimEnd();
  }
  return `${RUN_ENV} ${unittestCommand(suite.startDir, files)}`;
}

/** The artifact's test_script.sh: the selected test files, verbose per-test output (method §2). */
export function testScript(suite: TestSuite, files: readonly string[]): string {
  if (suite.kind === 'js') return jsTestScript(suite.runner, files);
  const run =
    suite.kind === 'pytest'
      ? `python3 -m pytest -rA -p no:cacheprovider ${shellQuoteAll(files)}`
      : unittestCommand(suite.startDir, files);
  return `#!/usr/bin/env bash\n# Runs the selected test files with one result line per test.\ncd /repo && PYTHONDONTWRITEBYTECODE=1 ${run}\n`;
}

/** The runner's whole-suite script, or the one restricted to `files`. */
function jsScript(runner: JsRunner, files?: readonly string[]): string {
  return files && files.length > 0 ? jsTestScript(runner, files) : testFilesForRunner(runner).testScript;
}

function unittestCommand(startDir: string, files?: readonly string[]): string {
  if (!files || files.length === 0) return `python3 -m unittest discover -v -s ${shellQuote(startDir)}`;
  const modules = files.map((file) => moduleOf(file, startDir));
  // Named modules load only themselves (discover -k would still report every module that fails to import).
  const path = startDir === '.' ? '' : `env PYTHONPATH=${shellQuote(startDir)}\${PYTHONPATH:+:$PYTHONPATH} `;
  return `${path}python3 -m unittest -v ${shellQuoteAll(modules)}`;
}

/** `tests/test_money.py` → `tests.test_money` (or `test_money` below start dir `tests`). */
export function moduleOf(file: string, startDir: string): string {
  const relative = startDir === '.' ? file : posix.relative(startDir, file);
  return relative.replace(/\.py$/, '').split('/').join('.');
}

/** The group summarize_run.py files a test file's tests under: the file (pytest, JS), its module (unittest). */
export function groupOfFile(suite: TestSuite, file: string): string {
  return suite.kind === 'unittest' ? moduleOf(file, suite.startDir) : file;
}
