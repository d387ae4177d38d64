import type { LineEdit } from './line-edit.js';

/** What a procedural bug records about one change it made (bug metadata; never shown to the Solver). */
export interface BugRecord {
  /** Catalogue operator name, or `revert-commit` for a history revert. */
  operator: string;
  kind: 'operator' | 'removal' | 'history';
  file: string;
  /** 1-based lines of the original file the change touches, when known. */
  line?: number;
  endLine?: number;
  description: string;
  /** History reverts: the commit whose change was undone. */
  commit?: string;
}

/**
 * One way to break one code file, tried on the clean repo: either an `edit` call (catalogue
 * mutations) or a bash command that changes the file (history reverts).
 */
export interface BugCandidate {
  file: string;
  record: BugRecord;
  apply: { type: 'edit'; edit: LineEdit } | { type: 'bash'; command: string };
  /** Whether the change is valid (parses, adds no comment, a text not tried before), asked just before it is tried; absent: known valid. */
  check?: () => boolean;
  /** The assistant text of the turn that makes the change. */
  rationale: string;
}
