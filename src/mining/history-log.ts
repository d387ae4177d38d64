import type { ChangedPath } from './classify-commit.js';

/** One commit of the history listing: what {@link classifyCommit} needs, and the subject for mined.jsonl. */
export interface LoggedCommit {
  sha: string;
  parents: string[];
  subject: string;
  /** Files changed against its only parent; empty for a merge (git log prints none) and meaningless for a root. */
  changed: ChangedPath[];
}

/** Record and field separators of {@link HISTORY_LOG_FORMAT}: bytes no sha, parent list or one-line subject holds. */
const RECORD = '\x1e';
const FIELD = '\x1f';

/**
 * `git log --format=` for {@link parseHistoryLog}: each commit opens with RS, then its sha and
 * parents, US, its subject; `--name-status` lines follow.
 */
export const HISTORY_LOG_FORMAT = '%x1e%H %P%x1f%s';

/**
 * The commits of one `git log --topo-order --name-status --no-renames --format=<HISTORY_LOG_FORMAT>`
 * pass, in its order (newest first). One git process for the whole window, where asking per commit
 * would start two for each one skipped. Pure.
 */
export function parseHistoryLog(out: string): LoggedCommit[] {
  const commits: LoggedCommit[] = [];
  for (const record of out.split(RECORD)) {
    if (record.trim() === '') continue;
    const [head = '', ...rest] = record.split('\n');
    const split = head.indexOf(FIELD);
    const ids = (split < 0 ? head : head.slice(0, split)).trim().split(' ').filter((id) => id !== '');
    const [sha, ...parents] = ids;
    if (sha === undefined) continue;
    const changed: ChangedPath[] = [];
    for (const line of rest) {
      const tab = line.indexOf('\t');
      if (tab <= 0) continue;
      // A copy or rename line (C/R with a score) would hold two paths; --no-renames keeps them out.
      changed.push({ status: line[0]!, path: line.slice(tab + 1) });
    }
    commits.push({ sha, parents, subject: split < 0 ? '' : head.slice(split + 1), changed });
  }
  return commits;
}
