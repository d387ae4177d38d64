import { shellQuote } from '../../../util/shell-quote.js';
import type { SeededRng } from '../../../util/seeded-rng.js';
import type { BugCandidate } from './bug-candidate.js';
import { heredoc, WORK_DIR } from './injector-commands.js';

/** A commit as `git log --name-status` lists it. */
export interface LoggedCommit {
  sha: string;
  subject: string;
  /** Paths the commit modified (status M); added, deleted and renamed files are left out. */
  modified: string[];
}

/** Subjects of commits worth reverting (method §7: past fixes, edge cases, optimisations). */
export const HISTORY_SUBJECT = /\b(fix|bug|edge|corner|handle|regression|optimi[sz]|crash|incorrect|wrong)/i;

/** The command listing recent commits: `@@commit SHA SUBJECT` then `M\tpath` lines. */
export function historyLogCommand(): string {
  return `cd /repo && git log --no-merges --no-color --format='@@commit %H %s' --name-status -n 200 | head -c 14000`;
}

/** Read {@link historyLogCommand}'s output. */
export function parseHistoryLog(text: string): LoggedCommit[] {
  const commits: LoggedCommit[] = [];
  for (const line of text.split('\n')) {
    const commit = /^@@commit ([0-9a-f]{7,64}) (.*)$/.exec(line);
    if (commit) {
      commits.push({ sha: commit[1]!, subject: commit[2]!.trim(), modified: [] });
      continue;
    }
    const change = /^M\t(.+)$/.exec(line);
    if (change && commits.length > 0) commits.at(-1)!.modified.push(change[1]!);
  }
  return commits;
}

/**
 * One candidate per (fix commit, code file it modified): undo that commit's change to that file
 * on HEAD with `git apply -R` (retried with one line of context when later commits moved its
 * surroundings). Commits, and the files of each, are visited in a seeded order (a fix that
 * touched three files gives three different bugs across seeds, not always its first file);
 * test files are never reverted. Other commits that modified code follow the fixes: a repo whose
 * subjects never say "fix" still has changes to undo, which the history probe planned on.
 */
export function historyCandidates(commits: readonly LoggedCommit[], codeFiles: ReadonlySet<string>, rng: SeededRng): BugCandidate[] {
  const fixes = rng.shuffle(commits.filter((c) => HISTORY_SUBJECT.test(c.subject)));
  const others = rng.fork('others').shuffle(commits.filter((c) => !HISTORY_SUBJECT.test(c.subject)));
  return [...fixes, ...others].flatMap((commit) =>
    rng
      .fork(`files:${commit.sha}`)
      .shuffle(commit.modified.filter((file) => codeFiles.has(file)))
      .map((file) => revertCandidate(commit, file, revertCommand(commit.sha, file))),
  );
}

/** The candidate that reverts only some hunks of a commit's change to one file (a compatibility fix). */
export function partialRevertCandidate(commit: LoggedCommit, file: string, patch: string, key: string): BugCandidate {
  const path = `${WORK_DIR}/partial_${key}.patch`;
  const command = `${heredoc(path, patch)}\ncd /repo && git apply -R --whitespace=nowarn ${path}`;
  const candidate = revertCandidate(commit, file, command);
  return {
    ...candidate,
    record: { ...candidate.record, description: `${candidate.record.description}, keeping the definitions the rest of the code uses` },
    rationale: `Revert only the hunks of ${commit.sha.slice(0, 8)} in ${file} that do not remove definitions, so the code still imports.`,
  };
}

function revertCandidate(commit: LoggedCommit, file: string, command: string): BugCandidate {
  const short = commit.sha.slice(0, 8);
  return {
    file,
    record: { operator: 'revert-commit', kind: 'history', file, description: `revert ${short} "${commit.subject}" in ${file}`, commit: commit.sha },
    apply: { type: 'bash', command },
    rationale: `Revert what commit ${short} ("${commit.subject}") changed in ${file}.`,
  };
}

/** `git apply -R` of one commit's diff of one file; then with one line of context if that failed. */
export function revertCommand(sha: string, file: string): string {
  const f = shellQuote(file);
  const diff = (context: number) => `git diff --no-color --no-ext-diff -U${context} ${sha}^ ${sha} -- ${f}`;
  return `cd /repo && { ${diff(3)} | git apply -R --whitespace=nowarn 2>/dev/null || ${diff(1)} | git apply -R -C1 --whitespace=nowarn; }`;
}

/** The command that prints one commit's diff of one file (to pick hunks from). */
export function showCommitFileCommand(sha: string, file: string): string {
  return `cd /repo && git diff --no-color --no-ext-diff ${sha}^ ${sha} -- ${shellQuote(file)}`;
}

/** The language families whose history the procedural Injector reverts. */
export type HistoryLanguage = 'python' | 'javascript';

/** Added lines that define something later code may use, per language (a hunk holding one is kept out of a partial revert). */
const DEFINES: Record<HistoryLanguage, RegExp> = {
  python: /^\+\s*(?:async\s+)?(?:def|class)\s|^\+\s*(?:import|from)\s|^\+[A-Za-z_]\w*\s*(?::[^=]*)?=(?!=)/,
  // Declarations, imports and exports, and module-level bindings (no indent).
  javascript: /^\+\s*(?:export\s+(?:default\s+)?)?(?:async\s+)?(?:function\b|class\s)|^\+\s*(?:import|export)\b|^\+(?:const|let|var)\s/,
};

/** A search verdict that says a revert broke imports or names (then a partial revert is tried). */
export const BROKE_IMPORTS: Record<HistoryLanguage, RegExp> = {
  python: /no longer imports|only \d+ test\(s\) fail on behaviour \(failures: .*(Import|Name|collection|missing)/,
  javascript: /no longer imports|only \d+ test\(s\) fail on behaviour \(failures: .*(ReferenceError|SyntaxError|collection|missing)/,
};

/**
 * A compatibility fix for a revert that broke imports: keep only the hunks whose reversal
 * removes no definition (a `def`, `class`, import or module-level assignment the commit added,
 * which later code may use; for JS a function, class, import, export or module-level binding).
 * Null when that leaves nothing, or everything.
 */
export function keepNonDefiningHunks(patch: string, language: HistoryLanguage = 'python'): string | null {
  const lines = patch.split('\n');
  const first = lines.findIndex((line) => line.startsWith('@@ '));
  if (first < 0) return null;
  const header = lines.slice(0, first);
  const hunks: string[][] = [];
  for (const line of lines.slice(first)) {
    if (line.startsWith('@@ ')) hunks.push([line]);
    else hunks.at(-1)!.push(line);
  }
  const defines = (hunk: string[]) => hunk.some((line) => DEFINES[language].test(line));
  const kept = hunks.filter((hunk) => !defines(hunk));
  if (kept.length === 0 || kept.length === hunks.length) return null;
  const body = kept.flat().join('\n');
  return `${header.join('\n')}\n${body}${body.endsWith('\n') ? '' : '\n'}`;
}
