import type { AheadCounts } from '../sandbox/pool/ahead-provider.js';
import type { MinedRecord } from './mined-log.js';
import { SKIP_REASONS, SKIP_REASON_TEXT, type SkipReason } from './skip-reasons.js';

/** What `ssr mine --json` prints: the whole scanned window, earlier runs' verdicts included. */
export interface MineSummary {
  repo: string;
  tip: string;
  /** Commits in the window (newest first, `--max-commits` / `--since` applied). */
  commitsListed: number;
  /** Commits judged, in this run or an earlier one. */
  scanned: number;
  /** Real bugs found in the window, with their bug ids. */
  mined: number;
  bugIds: string[];
  /** Of the real bugs, those whose bug_inject.diff changes more than one file. */
  multiFile: number;
  /** Skipped commits by reason (every reason present, zeros included). */
  skipped: Record<SkipReason, number>;
  /** Commits not judged because infrastructure failed: a rerun tries them again. */
  infrastructure: number;
  shallow: boolean;
  stoppedBy: 'max' | 'max-commits' | 'history-end';
  /** Seconds of judging per real bug, this run's alone: its judging time over the real bugs it found (null when it found none). */
  secondsPerBug: number | null;
  /** Candidate commits this run judged (infrastructure failures included); earlier runs' verdicts read back are not. */
  judgedNow: number;
  /** Real bugs this run found (of `mined`, which counts earlier runs' too). */
  minedNow: number;
  /** Seconds this run spent judging candidates (building, gating, validating), the numerator of `secondsPerBug`. */
  judgingSeconds: number;
  /** Sandbox images (or bwrap templates) built for the commits this run judged and removed after (none with `--keep-images`). */
  removedImages: string[];
  /** Validation's sandboxes started ahead of their runs in this run (AheadProvider); null when the provider starts none ahead. */
  sandboxesAhead: AheadCounts | null;
}

export interface SummaryInput {
  repo: string;
  tip: string;
  commitsListed: number;
  shallow: boolean;
  records: MinedRecord[];
  infrastructure: number;
  stoppedBy: MineSummary['stoppedBy'];
  /** This run's work alone: candidates judged, the real bugs among them, and the time judging them took. */
  thisRun: { judged: number; mined: number; judgingMs: number };
  /** Files each mined bug changes, by bug id (minedFileCounts). */
  fileCounts: ReadonlyMap<string, number>;
  removedImages: string[];
  sandboxesAhead?: AheadCounts;
}

export function summarise(input: SummaryInput): MineSummary {
  const skipped = Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as Record<SkipReason, number>;
  for (const record of input.records) if (record.reason) skipped[record.reason] += 1;
  const bugIds = input.records.flatMap((record) => (record.bugId ? [record.bugId] : []));
  // Only this run's judging over only this run's bugs: the records read back hold earlier runs' durations and bugs.
  const { judged, mined, judgingMs } = input.thisRun;
  return {
    repo: input.repo, tip: input.tip, commitsListed: input.commitsListed, scanned: input.records.length, mined: bugIds.length, bugIds,
    multiFile: bugIds.filter((id) => (input.fileCounts.get(id) ?? 0) > 1).length, skipped,
    infrastructure: input.infrastructure, shallow: input.shallow, stoppedBy: input.stoppedBy,
    secondsPerBug: mined > 0 ? Math.round(judgingMs / mined / 100) / 10 : null,
    judgedNow: judged, minedNow: mined, judgingSeconds: Math.round(judgingMs / 100) / 10,
    removedImages: [...input.removedImages],
    sandboxesAhead: input.sandboxesAhead ? { ...input.sandboxesAhead } : null,
  };
}

/** The summary for a person: found, scanned, and each reason with a count. */
export function formatMineSummary(summary: MineSummary, out: string): string {
  const lines = [
    `${summary.repo}: ${summary.mined} real bug(s) in ${summary.scanned} of ${summary.commitsListed} commit(s) scanned${summary.secondsPerBug === null ? '' : ` (${summary.secondsPerBug} s of judging per real bug found in this run)`} → ${out}/bugs/`,
  ];
  if (summary.mined > 0) lines.push(`  ${summary.multiFile} of them change more than one file`);
  if (summary.shallow) lines.push('  the clone is shallow: its oldest commits have no parent to mine (git fetch --unshallow for more)');
  for (const reason of SKIP_REASONS) {
    const n = summary.skipped[reason];
    if (n > 0) lines.push(`  skipped ${String(n).padStart(4)}  ${reason.padEnd(25)} ${SKIP_REASON_TEXT[reason]}`);
  }
  if (summary.infrastructure > 0) lines.push(`  not judged ${summary.infrastructure} (infrastructure failed; rerun the same command to try them again)`);
  if (summary.removedImages.length > 0) lines.push(`  removed ${summary.removedImages.length} sandbox image(s) built for the commits judged (--keep-images keeps them)`);
  if (summary.stoppedBy === 'max') lines.push('  stopped at --max real bugs: rerun with a higher --max to go on');
  if (summary.stoppedBy === 'max-commits') lines.push('  stopped at --max-commits: rerun with a higher --max-commits to scan further back');
  return `${lines.join('\n')}\n`;
}
