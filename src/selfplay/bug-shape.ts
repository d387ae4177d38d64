import type { Trajectory } from '../agent/trajectory.js';
import type { DiffHunk } from '../code/diff-types.js';
import { parseUnifiedDiff } from '../code/unified-diff.js';

/** Size and change kinds of a bug, for the diversity metrics of method §10. */
export interface BugShape {
  /** Files bug_inject.diff changes. */
  files: number;
  /** Hunks of bug_inject.diff (a whole added or deleted file is one). */
  hunks: number;
  /** Removed + added lines. */
  lines: number;
  /** Change kinds: the procedural operators when the Injector recorded them, else the diff's shape. */
  kinds: string[];
}

function hunkKind(hunk: DiffHunk): string {
  const removes = hunk.lines.some((line) => line.startsWith('-'));
  const adds = hunk.lines.some((line) => line.startsWith('+'));
  return removes && adds ? 'replace-lines' : removes ? 'remove-lines' : 'add-lines';
}

/**
 * Shape kinds of a diff: `delete-file`, `add-file`, `rename-file`, and per hunk of a changed file `remove-lines` / `add-lines` /
 * `replace-lines`; each kind once, sorted.
 */
export function diffShape(diff: string): BugShape {
  try {
    const { files, touchedPaths } = parseUnifiedDiff(diff);
    const kinds = new Set<string>();
    let lines = 0;
    let hunks = 0;
    for (const file of files) {
      hunks += file.hunks.length;
      if (file.kind === 'deleted') kinds.add('delete-file');
      else if (file.kind === 'added') kinds.add('add-file');
      else if (file.kind === 'renamed') kinds.add('rename-file');
      for (const hunk of file.kind === 'modified' || file.kind === 'renamed' ? file.hunks : []) kinds.add(hunkKind(hunk));
      lines += file.addedLines + file.removedLines;
    }
    return { files: touchedPaths.length, hunks, lines, kinds: [...kinds].sort() };
  } catch {
    return { files: 0, hunks: 0, lines: 0, kinds: ['unparsable'] };
  }
}

/**
 * The operators the procedural Injector recorded in the metadata.json it wrote with `create`
 * (its trajectory says so); [] for any other Injector.
 */
export function recordedOperators(trajectory: Trajectory | null): string[] {
  for (const step of [...(trajectory?.steps ?? [])].reverse()) {
    const args = step.toolCall?.name === 'create' ? (step.toolCall.arguments as { path?: unknown; content?: unknown }) : null;
    if (typeof args?.path !== 'string' || !args.path.endsWith('/metadata.json') || typeof args.content !== 'string') continue;
    try {
      const operators = (JSON.parse(args.content) as { operators?: Array<{ operator?: unknown }> }).operators ?? [];
      const names = operators.map((entry) => entry.operator).filter((name): name is string => typeof name === 'string');
      return [...new Set(names)].sort();
    } catch {
      return [];
    }
  }
  return [];
}

/** A bug's shape, with the recorded operators as its kinds when there are any. */
export function bugShape(bugInject: string, injector: Trajectory | null): BugShape {
  const shape = diffShape(bugInject);
  const operators = recordedOperators(injector);
  return operators.length > 0 ? { ...shape, kinds: operators } : shape;
}
