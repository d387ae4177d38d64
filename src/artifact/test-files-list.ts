/**
 * `test_files.txt`: one repo-relative path per line. Blank lines and `#` comment lines are
 * dropped, surrounding whitespace trimmed and a leading `./` removed, so two spellings of one
 * file count as a duplicate.
 */

/** Why one listed path is unusable, or null when it is fine. */
export function testFilePathProblem(path: string): string | null {
  if (path === '') return 'empty path';
  if (path.startsWith('/')) return `absolute path "${path}" (expected a path relative to the repo root)`;
  if (path.split('/').includes('..')) return `".." segment in "${path}" (paths must stay inside the repo)`;
  if (/[\0\r\n]/.test(path)) return `control character in ${JSON.stringify(path)}`;
  return null;
}

export function normalizeTestFilePath(raw: string): string {
  return raw.trim().replace(/^(?:\.\/)+/, '');
}

/**
 * Parse the text of test_files.txt.
 * @returns the paths in order, and every problem found (line-numbered); the list is usable only
 *   when `problems` is empty.
 */
export function parseTestFilesList(text: string): { files: string[]; problems: string[] } {
  const files: string[] = [];
  const problems: string[] = [];
  const firstLine = new Map<string, number>();
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const path = normalizeTestFilePath(trimmed);
    const line = index + 1;
    const problem = testFilePathProblem(path);
    if (problem) {
      problems.push(`line ${line}: ${problem}`);
      return;
    }
    const first = firstLine.get(path);
    if (first !== undefined) {
      problems.push(`line ${line}: duplicate "${path}" (first listed on line ${first})`);
      return;
    }
    firstLine.set(path, line);
    files.push(path);
  });
  return { files, problems };
}

/** The canonical text of a list: one path per line, newline-terminated. */
export function formatTestFilesList(files: readonly string[]): string {
  return files.map((file) => `${file}\n`).join('');
}
