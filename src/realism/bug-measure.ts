import { createHash } from 'node:crypto';
import { parseUnifiedDiff } from '../code/unified-diff.js';
import { diffShape } from '../selfplay/bug-shape.js';
import { filesSpanned } from '../validator/test-file-of.js';

/** Where a bug comes from: made by an Injector, or mined from a fix commit (`ssr mine`). */
export type BugOrigin = 'synthetic' | 'real';

/**
 * What a bug is like, measured the same way whether it was made or mined, so the two can stand
 * side by side (`ssr realism`). Every size is of bug_inject.diff, the change from the original
 * (fixed) state O to the buggy one: for a mined bug that is the fix commit's code change reversed.
 */
export interface BugMeasure {
  bugId: string;
  repo: string;
  origin: BugOrigin;
  /** The recorded kind: the procedural Injector's operators (`+`-joined), else the strategy (`mined` for a real bug). */
  kind: string;
  /** The diff's own shape kinds (`remove-lines`, `replace-lines`, `add-lines`, `add-file`, …): one vocabulary for both origins. */
  shape: string[];
  /** Code files, hunks and changed lines (removed + added) of bug_inject.diff. */
  files: number;
  hunks: number;
  lines: number;
  /** Failing-test breadth: the FAIL_TO_PASS tests (fail on the buggy state, pass on O) and the test files they span. */
  failingTests: number;
  failingTestFiles: number;
  /** {@link changeKey} of bug_inject.diff: equal for two bugs that make the same code change (null: unparsable). */
  change: string | null;
}

/** The inputs of {@link measureBug}: a stored bug's patch, its validation's FAIL_TO_PASS and test files. */
export interface MeasureInput {
  bugId: string;
  repo: string;
  origin: BugOrigin;
  kind: string;
  bugInject: string;
  failToPass: readonly string[];
  testFiles: readonly string[];
}

/** Measure one bug. Pure. */
export function measureBug(input: MeasureInput): BugMeasure {
  const shape = diffShape(input.bugInject);
  return {
    bugId: input.bugId,
    repo: input.repo,
    origin: input.origin,
    kind: input.kind,
    shape: shape.kinds,
    files: shape.files,
    hunks: shape.hunks,
    lines: shape.lines,
    failingTests: input.failToPass.length,
    failingTestFiles: filesSpanned(input.failToPass, input.testFiles).length,
    change: changeKey(input.bugInject),
  };
}

/**
 * What a diff changes, line numbers, context and indentation aside: per file (sorted), its path
 * and the lines it removes and adds, hashed. A synthetic bug made at the tip and a mined one
 * whose fixed state is an older commit have the same key when they make the same change (the
 * history strategy reverting a fix commit does). Null for a diff that does not parse.
 */
export function changeKey(diff: string): string | null {
  let files;
  try {
    files = parseUnifiedDiff(diff).files;
  } catch {
    return null;
  }
  const parts = files
    .map((file) => {
      const lines = file.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.startsWith('-') || line.startsWith('+')).map((line) => `${line[0]}${line.slice(1).trim()}`));
      return `${file.oldPath ?? ''}>${file.newPath ?? ''}\n${lines.join('\n')}`;
    })
    .sort();
  return createHash('sha256').update(parts.join('\n\0')).digest('hex').slice(0, 16);
}
