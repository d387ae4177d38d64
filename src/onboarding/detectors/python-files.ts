import type { RepoFiles } from '../repo-files.js';

const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/;

/** Python test files by pytest's and unittest's default naming (test_*.py, *_test.py). */
export function pythonTestFiles(files: RepoFiles): string[] {
  return files.paths.filter((path) => TEST_FILE.test(path));
}

/** The files among `paths` whose text matches `pattern` (read at the repo's commit). */
export async function filesMatching(files: RepoFiles, paths: readonly string[], pattern: RegExp): Promise<string[]> {
  const hits = await Promise.all(paths.map(async (path) => ((await files.read(path)) ?? '').match(pattern) !== null));
  return paths.filter((_, index) => hits[index]);
}

/** Up to three names and a count, for evidence lines. */
export function few(paths: readonly string[]): string {
  return `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` (+${paths.length - 3} more)` : ''}`;
}
