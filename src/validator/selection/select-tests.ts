import { posix } from 'node:path';
import { isTestPath } from '../../code/classify-path.js';
import { REPO_DIR } from '../../sandbox/sandbox.js';
import { ImportGraph } from './import-graph.js';

/**
 * Which tests a bug's validation runs: `selected` names the Python files pytest must not collect
 * (`--ignore`, as whole directories where it can) and what is kept; `full` says why the whole suite runs.
 */
export type TestSelection =
  | { status: 'selected'; ignore: string[]; keptTestFiles: number; testFiles: number }
  | { status: 'full'; reason: string };

/** PYTEST_ADDOPTS is one environment string; far below the kernel's 128 KiB per string. */
const MAX_ADDOPTS_BYTES = 64 * 1024;

export interface SelectTestsInput {
  /** Every Python file of O, repo-relative, with its source. */
  sources: ReadonlyMap<string, string>;
  /** Files bug_inject.diff changes. */
  changed: readonly string[];
  /** test_files.txt: always run (test_weaken.diff edits them). */
  listed: readonly string[];
}

/**
 * The tests relevant to a change: test files that import a changed file (directly or through
 * other modules, see ImportGraph), the listed test files, and every file under a `conftest.py`
 * that imports one (its fixtures reach all of them). A change the import graph cannot follow (a
 * file that is not Python) runs the full suite.
 */
export function selectTests(input: SelectTestsInput): TestSelection {
  const opaque = input.changed.find((path) => !path.endsWith('.py'));
  if (opaque !== undefined) return { status: 'full', reason: `bug_inject.diff changes ${opaque}, which the import graph cannot follow` };
  const affected = new ImportGraph(input.sources).affectedBy(input.changed);
  for (const path of input.listed) affected.add(path);
  const conftestDirs = [...affected].filter((path) => posix.basename(path) === 'conftest.py').map((path) => posix.dirname(path));
  const under = (path: string, dir: string): boolean => dir === '.' || path.startsWith(`${dir}/`);
  const kept = (path: string): boolean =>
    affected.has(path) || ['conftest.py', '__init__.py'].includes(posix.basename(path)) || conftestDirs.some((dir) => under(path, dir));

  const python = [...input.sources.keys()].filter((path) => path.endsWith('.py'));
  const ignored = python.filter((path) => !kept(path));
  const testFiles = python.filter((path) => isTestPath(path) && posix.basename(path) !== 'conftest.py' && posix.basename(path) !== '__init__.py');
  const keptTestFiles = testFiles.filter(kept).length;
  if (ignored.filter((path) => isTestPath(path)).length === 0) return { status: 'full', reason: `every one of the ${testFiles.length} test file(s) may depend on the change` };
  const ignore = compress(ignored, python);
  if (ignore.some((path) => /['"\s\\]/.test(path))) return { status: 'full', reason: 'a path to leave out has a quote, a backslash or white space' };
  if (Buffer.byteLength(pytestIgnoreOptions(ignore)) > MAX_ADDOPTS_BYTES) return { status: 'full', reason: `${ignore.length} paths to leave out are too many for PYTEST_ADDOPTS` };
  return { status: 'selected', ignore, keptTestFiles, testFiles: testFiles.length };
}

/** The ignored files, with each directory whose Python files are all ignored named once instead. */
function compress(ignored: readonly string[], all: readonly string[]): string[] {
  const ignoredSet = new Set(ignored);
  const dirs = new Set<string>();
  for (const path of ignored) for (let dir = posix.dirname(path); dir !== '.'; dir = posix.dirname(dir)) dirs.add(dir);
  const whole = [...dirs].filter((dir) => all.every((path) => !path.startsWith(`${dir}/`) || ignoredSet.has(path)));
  // Only the outermost fully ignored directories; files outside them one by one.
  const outer = whole.filter((dir) => !whole.some((other) => other !== dir && dir.startsWith(`${other}/`)));
  const inOuter = (path: string): boolean => outer.some((dir) => path.startsWith(`${dir}/`));
  return [...outer.map((dir) => `${dir}/`), ...ignored.filter((path) => !inOuter(path))].sort();
}

/** The PYTEST_ADDOPTS value that leaves the paths out of collection (absolute, so a script's own `cd` does not matter). */
export function pytestIgnoreOptions(ignore: readonly string[]): string {
  return ignore.map((path) => `--ignore=${REPO_DIR}/${path.replace(/\/$/, '')}`).join(' ');
}
