/**
 * Which repo files are tests and which are code. method §2: bug_inject.diff may touch code files
 * only, and min_changed_files counts code files. The rules follow pytest's collection
 * conventions, plus the usual Go and JS/TS spellings for repos in other languages.
 */

/** Directories whose whole content is test material. */
const TEST_DIRS = new Set(['tests', 'test', '__tests__']);

const TEST_FILE_PATTERNS: readonly RegExp[] = [
  /^test_.*\.py$/, // pytest default `python_files`
  /^.+_test\.py$/,
  /^conftest\.py$/, // fixtures and hooks: editing it changes what tests see
  /^.+_test\.go$/,
  /^.+\.(?:test|spec)\.[cm]?[jt]sx?$/,
];

/** Extensions of source files that a bug may be injected into (executed or compiled code). */
const CODE_EXTENSIONS = new Set([
  'py', 'pyx', 'pxd', 'pxi',
  'c', 'h', 'cc', 'cpp', 'cxx', 'hh', 'hpp', 'hxx',
  'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx',
  'go', 'rs', 'java', 'kt', 'kts', 'scala', 'cs', 'swift', 'm', 'mm',
  'rb', 'php', 'pl', 'pm', 'lua', 'jl', 'r', 'f', 'f90', 'zig',
]);

function segments(path: string): string[] {
  return path.replace(/^(?:\.\/)+/, '').split('/').filter((part) => part !== '' && part !== '.');
}

/**
 * Whether `path` (repo-relative, `/`-separated) is test material: `test_*.py`, `*_test.py`,
 * `conftest.py`, or anything under a `tests/` or `test/` directory (also `*_test.go`,
 * `*.test.ts`/`*.spec.js` and `__tests__/`).
 */
export function isTestPath(path: string): boolean {
  const parts = segments(path);
  const name = parts.at(-1);
  if (name === undefined) return false;
  if (parts.slice(0, -1).some((dir) => TEST_DIRS.has(dir))) return true;
  return TEST_FILE_PATTERNS.some((pattern) => pattern.test(name));
}

/** Whether `path` is a source file (by extension, case-insensitive) that is not a test path. */
export function isCodePath(path: string): boolean {
  const name = segments(path).at(-1);
  if (name === undefined) return false;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return false;
  return CODE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase()) && !isTestPath(path);
}
