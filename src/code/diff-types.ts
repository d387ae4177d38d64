import type { StructuredPatchHunk } from 'diff';

/** What a file section of a diff does to its file. A copy (`git diff -C`) is an `added` file with `copiedFrom`. */
export type FileDiffKind = 'modified' | 'added' | 'deleted' | 'renamed';

/**
 * One hunk, in the `diff` package's structure (so `applyPatch` accepts it): starts are 1-based,
 * a start of an empty side is one past the line it follows, and `lines` keep their `' '`/`'-'`/`'+'`
 * prefix plus any `"\ No newline at end of file"` marker after the line it qualifies.
 */
export interface DiffHunk extends StructuredPatchHunk {
  /** Text after the closing `@@` (git's function context, with its leading space), or `''`. */
  heading: string;
}

/** One file of a parsed diff. Paths are repo-relative, prefix-stripped (`-p1`), never `/dev/null`. */
export interface FileDiff {
  /** Path before the change; null for an added file. */
  oldPath: string | null;
  /** Path after the change; null for a deleted file. */
  newPath: string | null;
  kind: FileDiffKind;
  hunks: DiffHunk[];
  addedLines: number;
  removedLines: number;
  /** A binary change (`GIT binary patch` or `Binary files … differ`); it has no hunks. */
  binary: boolean;
  /** 1-based line in the diff text where this file's section starts. */
  line: number;
  /** File mode before (`old mode`, `deleted file mode`, or the mode on the `index` line). */
  oldMode?: string;
  /** File mode after (`new mode`, `new file mode`, or the mode on the `index` line). */
  newMode?: string;
  /** `similarity index` of a rename or copy, in percent. */
  similarity?: number;
  /** Source path of a copy (`copy from`); the file itself is `added` at `newPath`. */
  copiedFrom?: string;
  /** The `index <old>..<new> [mode]` line's blob ids. */
  index?: { oldHash: string; newHash: string };
  /** `GIT binary patch` blocks (each: the `literal N`/`delta N` line and its data lines); forward first, reverse second. */
  binaryPatch?: string[][];
}

/** A parsed unified diff. */
export interface ParsedDiff {
  files: FileDiff[];
  /** Every path the diff touches on either side, sorted and unique. */
  touchedPaths: string[];
}
