import { shellQuoteAll } from '../../../util/shell-quote.js';
import { bash, type ProgramContext, type Steps } from '../program.js';
import type { BugCandidate } from './bug-candidate.js';
import { combineChanges, type KeptChange } from './combine-bugs.js';
import { applyEditsCommand, BASELINE_JSON, runCommand, stashCommand, WORK_DIR } from './injector-commands.js';
import { judgeAttempt, type AttemptVerdict, type BreadthCap } from './judge-attempt.js';
import type { RepoFacts } from './repo-facts.js';
import { parseRunSummary, type BrokenTest, type RunSummary } from './run-summary.js';

/** A kept change: the candidate and where its diff was put aside. */
export interface KeptCandidate {
  candidate: BugCandidate;
  diffPath: string;
}

/** The bug the search settled on: its parts (one per file), applied in the sandbox, and the run of B. */
export interface FoundBug {
  parts: KeptCandidate[];
  /** The whole suite on B (saved as b.json), compared with the original. */
  buggy: RunSummary;
  /** Behavioural failures of B in clean test files. */
  behavioural: string[];
  broken: BrokenTest[];
  attempts: number;
}

export interface SearchOptions {
  facts: RepoFacts;
  minChangedFiles: number;
  minFailingTests: number;
  /** The validator's breadth cap: a change breaking more is too blunt to keep. */
  breadth: BreadthCap;
  /** Most candidates tried. */
  maxAttempts: number;
  /** Turns to keep for selecting tests, weakening, writing the artifact and submitting. */
  reserveTurns: number;
  /** Called after a rejection: more candidates to try next (history's compatibility fixes). */
  onRejected?: (candidate: BugCandidate, verdict: Extract<AttemptVerdict, { status: 'rejected' }>, index: number) => Steps<BugCandidate[]>;
}

/**
 * Try candidates one at a time on the clean repo (each change is run, put aside as a diff and
 * undone), keep those that make tests fail on behaviour, and stop as soon as kept changes in
 * `minChangedFiles` files combine so each file matters. The combination is then applied and run
 * as a whole, and for a multi-file bug each file is reverted alone to confirm it contributes
 * (method §3.7); a file that does not is dropped and the search goes on. Null when the candidates
 * or the budget run out first.
 */
export async function* findBug(ctx: ProgramContext, candidates: BugCandidate[], options: SearchOptions): Steps<FoundBug | null> {
  const queue = [...candidates];
  const kept: KeptChange<KeptCandidate>[] = [];
  let attempts = 0;
  while (queue.length > 0 && attempts < options.maxAttempts && hasTurns(ctx, options.reserveTurns + 3)) {
    const candidate = queue.shift()!;
    if (kept.some((k) => k.file === candidate.file)) continue;
    const index = attempts++;
    const diffPath = `${WORK_DIR}/cand_${index}.diff`;
    const verdict = yield* tryCandidate(candidate, diffPath, index, options);
    if (verdict.status === 'rejected') {
      if (options.onRejected) queue.unshift(...(yield* options.onRejected(candidate, verdict, index)));
      continue;
    }
    kept.push({ file: candidate.file, behavioural: verdict.behavioural, value: { candidate, diffPath } });
    const chosen = combineChanges(kept, options.minChangedFiles);
    if (!chosen) continue;
    const found = yield* confirm(chosen.map((c) => c.value), options);
    if (found.status === 'ok') return { ...found.bug, attempts };
    // Drop the part that did not hold up (or the last one) and search on.
    const drop = kept.findIndex((k) => k.value.candidate === found.culprit);
    kept.splice(drop >= 0 ? drop : kept.length - 1, 1);
  }
  return null;
}

async function* tryCandidate(candidate: BugCandidate, diffPath: string, index: number, options: SearchOptions): Steps<AttemptVerdict> {
  const run = runCommand(options.facts.suite, `t${index}`, { against: BASELINE_JSON, limit: 60, timeoutS: options.facts.runLimitS });
  const stash = stashCommand([candidate.file], diffPath);
  let observation;
  if (candidate.apply.type === 'edit') {
    // The edit, the run and putting the change aside in one command: one turn per candidate.
    const change = applyEditsCommand([{ path: candidate.file, ...candidate.apply.edit }], `c${index}`);
    observation = yield bash(`${change} && {\n${run}\n}\n${stash}`, `${candidate.rationale} Run the tests with it, then put it aside as a diff and restore the file.`);
    const failed = /^@@edit-failed (.*)$/m.exec(observation.text);
    if (failed) return { status: 'rejected', reason: `the edit failed: ${failed[1]}` };
  } else {
    const command = `if ${candidate.apply.command}; then\n${run}\nelse echo '@@apply-failed'; fi\n${stash}`;
    observation = yield bash(command, candidate.rationale);
  }
  return judgeAttempt(parseRunSummary(observation.text), options.facts, options.minFailingTests, options.breadth);
}

type Confirmation = { status: 'ok'; bug: Omit<FoundBug, 'attempts'> } | { status: 'failed'; culprit?: BugCandidate };

async function* confirm(parts: KeptCandidate[], options: SearchOptions): Steps<Confirmation> {
  const { facts } = options;
  const files = parts.map((p) => p.candidate.file);
  const apply = `cd /repo && git apply --whitespace=nowarn ${shellQuoteAll(parts.map((p) => p.diffPath))}`;
  const run = runCommand(facts.suite, 'b', { against: BASELINE_JSON, limit: 80, timeoutS: facts.runLimitS });
  const observation = yield bash(`${apply} && {\n${run}\n}`, `Apply the kept change${parts.length > 1 ? 's' : ''} together and run the whole suite.`);
  const buggy = parseRunSummary(observation.text);
  const verdict = judgeAttempt(buggy, facts, options.minFailingTests, options.breadth);
  if (verdict.status === 'rejected' || !buggy) {
    yield bash(`cd /repo && git checkout -q -- ${shellQuoteAll(files)}`, 'That combination does not hold up; restore the files.');
    return { status: 'failed' };
  }
  if (parts.length > 1) {
    const failing = new Set(verdict.behavioural);
    for (const part of parts) {
      const file = part.candidate.file;
      const revert = `cd /repo && git diff --no-color -- ${shellQuoteAll([file])} > ${WORK_DIR}/keep.diff && git checkout -q -- ${shellQuoteAll([file])}`;
      const inverse = runCommand(facts.suite, 'inv', { against: BASELINE_JSON, limit: 80, timeoutS: facts.runLimitS });
      const back = `cd /repo && git apply --whitespace=nowarn ${WORK_DIR}/keep.diff`;
      const seen = yield bash(`${revert}\n${inverse}\n${back}`, `Check that reverting ${file} alone fixes some failing test (every changed file must matter).`);
      const still = parseRunSummary(seen.text);
      const fixed = still ? [...failing].filter((id) => !still.broken.some((t) => t.id === id)) : [];
      if (fixed.length === 0) {
        yield bash(`cd /repo && git checkout -q -- ${shellQuoteAll(files)}`, `${file} does not contribute on its own; restore the files and keep searching.`);
        return { status: 'failed', culprit: part.candidate };
      }
    }
  }
  return { status: 'ok', bug: { parts, buggy, behavioural: verdict.behavioural, broken: verdict.broken } };
}

function hasTurns(ctx: ProgramContext, needed: number): boolean {
  const { turnsLeft, tokensLeft } = ctx.budget;
  return (turnsLeft === null || turnsLeft >= needed) && (tokensLeft === null || tokensLeft >= 20_000);
}
