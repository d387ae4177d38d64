import { isDiffParseError } from '../code/diff-parse-error.js';
import { formatGitDiff } from '../code/format-git-diff.js';
import { parseUnifiedDiff } from '../code/unified-diff.js';
import { normalizeTestFilePath } from '../artifact/test-files-list.js';
import { isTestPath } from '../code/classify-path.js';

export interface DroppedSections {
  /** The patch without the dropped sections (the input itself, byte for byte, when none was dropped). */
  patch: string;
  /** Paths of the dropped file sections, in patch order. */
  dropped: string[];
}

/**
 * Drop the file sections of a Solver patch that touch an oracle test file, or any file named like
 * a test or test configuration ({@link isTestPath}: `tests/…`, `test_*.py`, `conftest.py`), on
 * either side.
 *
 * Why: grading restores every file of test_files.txt to O after applying the patch (SPEC §4), so
 * these sections can never count. Worse, the Solver diffed against the *weakened* tests while
 * grading applies onto O + bug_inject, where those files are the originals: their context does not
 * match, and one such section would make an honest code fix fail to apply. Dropping them first
 * changes no outcome except that one. Any other test-like file goes too: a new `tests/conftest.py`
 * is not listed (so never restored) yet can rewrite every test's outcome with a pytest hook — the
 * Solver must fix code, not the test machinery. A patch that does not parse is returned as is (applying it
 * then fails, or not, on its own).
 */
export function dropTestFileSections(patch: string, testFiles: readonly string[]): DroppedSections {
  const listed = new Set(testFiles.map(normalizeTestFilePath));
  let files;
  try {
    files = parseUnifiedDiff(patch).files;
  } catch (error) {
    if (isDiffParseError(error)) return { patch, dropped: [] };
    throw error;
  }
  const touchesTest = (path: string | null): boolean => path !== null && (listed.has(path) || isTestPath(path));
  const kept = files.filter((file) => !touchesTest(file.oldPath) && !touchesTest(file.newPath));
  if (kept.length === files.length) return { patch, dropped: [] };
  const dropped = files.filter((file) => !kept.includes(file)).map((file) => file.newPath ?? file.oldPath!);
  return { patch: formatGitDiff(kept), dropped };
}
