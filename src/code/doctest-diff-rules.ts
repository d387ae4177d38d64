import { applyHunks } from './apply-hunks.js';
import { isCodePath, isTestPath } from './classify-path.js';
import { classifyFileHunks, mayHoldDoctests } from './classify-hunk.js';
import type { FileDiff, ParsedDiff } from './diff-types.js';

/**
 * The hunk rules of method §2 where a code file holds doctest examples (test code inside a code
 * file): bug_inject.diff must change code and no example line; test_weaken.diff may change a code
 * file only in hunks that change nothing but example lines. `doctestFiles` are O's Python files
 * holding a `>>>`, with their text; a file not in it holds no example.
 */

/** A listed file of test_files.txt that is code, not a test file: its doctest examples are its tests. */
export function isDoctestHost(path: string): boolean {
  return mayHoldDoctests(path) && isCodePath(path) && !isTestPath(path);
}

const ADDS_PROMPT = /^\+\s*>>>/;

/** Every problem of bug_inject.diff's hunks: one that changes only examples, or examples beside code. */
export function bugHunkProblems(bug: ParsedDiff, doctestFiles: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const file of bug.files) {
    const path = file.oldPath ?? file.newPath;
    if (path === null || !mayHoldDoctests(path)) continue;
    const before = doctestFiles.get(path);
    if (before === undefined) {
      if (file.hunks.some((hunk) => hunk.lines.some((line) => ADDS_PROMPT.test(line)))) problems.push(`${path}: adds doctest examples`);
      continue;
    }
    const kinds = classifyFileHunks(file, before);
    if (kinds === null) continue; // does not apply: the apply check names it
    kinds.forEach((kind, index) => {
      const at = `${path} hunk ${index + 1} (line ${file.hunks[index]!.oldStart})`;
      if (kind === 'examples') problems.push(`${at} changes only doctest examples (test code)`);
      if (kind === 'mixed') problems.push(`${at} changes doctest example lines beside the code`);
    });
  }
  return problems;
}

/** Every problem of test_weaken.diff's sections in code files: each hunk must change only doctest examples of B. */
export function weakenHunkProblems(weaken: ParsedDiff, bug: ParsedDiff, doctestFiles: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const file of weaken.files) {
    const path = file.newPath ?? file.oldPath;
    if (path === null || isTestPath(path) || !isCodePath(path)) continue;
    const before = buggyText(path, bug, doctestFiles);
    if (file.kind !== 'modified' || file.oldPath !== file.newPath || before === null) {
      problems.push(`${path} is a code file and holds no doctest examples test_weaken.diff could change`);
      continue;
    }
    const kinds = classifyFileHunks(file, before);
    if (kinds === null) continue; // does not apply: the apply check names it
    kinds.forEach((kind, index) => {
      if (kind !== 'examples') problems.push(`${path} hunk ${index + 1} (line ${file.hunks[index]!.oldStart}) changes code, not only doctest examples`);
    });
  }
  return problems;
}

// The file on B: O's text with bug_inject.diff's section applied; null when O's holds no example.
function buggyText(path: string, bug: ParsedDiff, doctestFiles: ReadonlyMap<string, string>): string | null {
  const original = doctestFiles.get(path);
  if (original === undefined) return null;
  const section: FileDiff | undefined = bug.files.find((f) => f.oldPath === path && f.newPath === path);
  if (!section) return original;
  const applied = applyHunks(original, section.hunks);
  return applied === false ? original : applied;
}
