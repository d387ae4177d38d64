import { shellQuoteAll } from '../../../util/shell-quote.js';
import { bash, type ProgramContext, type Steps } from '../program.js';
import type { BugCandidate } from './bug-candidate.js';
import { orderByReach } from './candidate-order.js';
import { combineChanges, type KeptChange } from './combine-bugs.js';
import { coveringTests, unionOfTests, type CandidateTests, type TestCoverage } from './covering-tests.js';
import { candidateLimitS, updatePace, type CandidatePace } from './candidate-limit.js';
import { candidateMaxFail } from './early-stop.js';
import { applyEditsCommand, BASELINE_JSON, BUGGY_JSON, runCommand, stashCommand, WORK_DIR } from './injector-commands.js';
import { judgeAttempt, type AttemptVerdict, type BreadthCap } from './judge-attempt.js';
import type { RepoFacts } from './repo-facts.js';
import { parseRunSummary, type BrokenTest, type RunSummary } from './run-summary.js';
import { groupOfFile } from './test-suite.js';
import { addPhaseTime, timedSteps, type PhaseTimes } from '../phase-times.js';

/** A kept change: the candidate, where its diff was put aside, and its run (`t<N>.json`, read as the whole suite's map). */
export interface KeptCandidate {
  candidate: BugCandidate;
  diffPath: string;
  run: { json: string; summary: RunSummary; verdict: Extract<AttemptVerdict, { status: 'accepted' }> };
  /** The test files it was run against. */
  tests: CandidateTests;
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
  /** Which test files execute each line of the files the candidates change; null: every run is the whole suite. */
  coverage?: TestCoverage | null;
  /** Turns to keep for selecting tests, weakening, writing the artifact and submitting. */
  reserveTurns: number;
  /** Where the candidates' runs (`kept`, `rejected`) and B's confirmation (`confirm`) add their wall time, ms. */
  times?: PhaseTimes;
  /** How crowded the machine is now (see CandidatePace.crowding); absent: runs are limited as on an idle machine. */
  crowding?: () => number;
  /** Called after a rejection: more candidates to try next (history's compatibility fixes). */
  onRejected?: (candidate: BugCandidate, verdict: Extract<AttemptVerdict, { status: 'rejected' }>, index: number) => Steps<BugCandidate[]>;
}

/**
 * Try candidates one at a time on the clean repo (each change is run, put aside as a diff and
 * undone), keep those that make tests fail on behaviour, and stop as soon as kept changes in
 * `minChangedFiles` files combine so each file matters. A one-file bug's run is its candidate's;
 * a combination is applied and run as a whole, and each file is reverted alone to confirm it
 * contributes (method §3.7); a file that does not is dropped and the search goes on. With
 * `coverage`, every run is of the test files that execute the changed lines only, and candidates
 * that only a few test files execute are tried first (see orderByReach). Null when the
 * candidates or the budget run out first.
 */
export async function* findBug(ctx: ProgramContext, candidates: BugCandidate[], options: SearchOptions): Steps<FoundBug | null> {
  const queue = orderByReach(candidates, options.coverage ?? null, options.breadth);
  const times = options.times ?? {};
  const kept: KeptChange<KeptCandidate>[] = [];
  const pace: CandidatePace = { slowdown: 1, ...(options.crowding ? { crowding: options.crowding } : {}) };
  let attempts = 0;
  while (queue.length > 0 && attempts < options.maxAttempts && hasTurns(ctx, options.reserveTurns + 3)) {
    const candidate = queue.shift()!;
    if (kept.some((k) => k.file === candidate.file)) continue;
    // A JS/TS mutant is checked only now: not a turn, not an attempt when it fails.
    if (candidate.check && !candidate.check()) continue;
    const index = attempts++;
    const diffPath = `${WORK_DIR}/cand_${index}.diff`;
    const tried: PhaseTimes = {};
    const { verdict, summary, tests } = yield* timedSteps(tryCandidate(candidate, diffPath, index, options, pace), tried, 'candidate');
    const rejected = verdict.status === 'rejected' || !summary;
    addPhaseTime(times, rejected ? 'rejected' : 'kept', tried.candidate ?? 0);
    if (rejected) {
      if (options.onRejected && verdict.status === 'rejected') queue.unshift(...(yield* timedSteps(options.onRejected(candidate, verdict, index), times, 'rejected')));
      continue;
    }
    const run = { json: `${WORK_DIR}/t${index}.json`, summary, verdict };
    kept.push({ file: candidate.file, behavioural: verdict.behavioural, value: { candidate, diffPath, run, tests } });
    const chosen = combineChanges(kept, options.minChangedFiles);
    if (!chosen) continue;
    const found = yield* timedSteps(confirm(chosen.map((c) => c.value), options), times, 'confirm');
    if (found.status === 'ok') return { ...found.bug, attempts };
    // Drop the part that did not hold up (or the last one) and search on.
    const drop = kept.findIndex((k) => k.value.candidate === found.culprit);
    kept.splice(drop >= 0 ? drop : kept.length - 1, 1);
  }
  return null;
}

/**
 * One candidate's run: against only the test files that execute the lines it changes (see
 * coveringTests), the other tests keeping their clean status in its map, else the whole suite;
 * within a limit from those tests' clean time and the episode's `pace` (see candidateLimitS),
 * stopped once it breaks more than any accepted change could (candidateMaxFail).
 */
async function* tryCandidate(candidate: BugCandidate, diffPath: string, index: number, options: SearchOptions, pace: CandidatePace): Steps<{ verdict: AttemptVerdict; summary: RunSummary | null; tests: CandidateTests }> {
  const { record } = candidate;
  const { facts } = options;
  const tests = candidate.apply.type === 'edit' ? coveringTests(options.coverage ?? null, candidate.file, record.line, record.endLine) : ({ status: 'full', reason: 'a command changes the file' } as const);
  const maxFail = candidateMaxFail(facts, tests, options.breadth);
  const run = runCommand(facts.suite, `t${index}`, {
    against: BASELINE_JSON,
    limit: 60,
    timeoutS: candidateLimitS(facts, tests, pace),
    ...restrictTo(options, tests),
    ...(maxFail !== undefined ? { pytest: { maxFail } } : {}),
  });
  const stash = stashCommand([candidate.file], diffPath);
  let observation;
  if (candidate.apply.type === 'edit') {
    // The edit, the run and putting the change aside in one command: one turn per candidate.
    const change = applyEditsCommand([{ path: candidate.file, ...candidate.apply.edit }], `c${index}`);
    observation = yield bash(`${change} && {\n${run}\n}\n${stash}`, `${candidate.rationale} Run the tests with it, then put it aside as a diff and restore the file.`);
    const failed = /^@@edit-failed (.*)$/m.exec(observation.text);
    if (failed) return { verdict: { status: 'rejected', reason: `the edit failed: ${failed[1]}` }, summary: null, tests };
  } else {
    const command = `if ${candidate.apply.command}; then\n${run}\nelse echo '@@apply-failed'; fi\n${stash}`;
    observation = yield bash(command, candidate.rationale);
  }
  const summary = parseRunSummary(observation.text);
  updatePace(pace, facts, tests, summary);
  return { verdict: judgeAttempt(summary, facts, options.minFailingTests, options.breadth), summary, tests };
}

/** runCommand's options for a run against `tests`: the files, and the groups their tests are filed under. */
function restrictTo(options: SearchOptions, tests: CandidateTests): { files?: string[]; ran?: string[] } {
  if (tests.status === 'full') return {};
  return { files: tests.files, ran: [...new Set(tests.files.map((file) => groupOfFile(options.facts.suite, file)))] };
}

type Confirmation = { status: 'ok'; bug: Omit<FoundBug, 'attempts'> } | { status: 'failed'; culprit?: BugCandidate };

async function* confirm(parts: KeptCandidate[], options: SearchOptions): Steps<Confirmation> {
  const { facts } = options;
  const files = parts.map((p) => p.candidate.file);
  const apply = `cd /repo && git apply --whitespace=nowarn ${shellQuoteAll(parts.map((p) => p.diffPath))}`;
  const only = parts.length === 1 ? parts[0]! : undefined;
  if (only) {
    // One file: B is the tree the candidate's run ran on, so that run is B's (no second run).
    const applied = yield bash(`${apply} && cp ${only.run.json} ${BUGGY_JSON} && echo '@@buggy-reused'`, 'Apply the kept change again; its run is the buggy run.');
    if (!applied.text.includes('@@buggy-reused')) {
      yield bash(`cd /repo && git checkout -q -- ${shellQuoteAll(files)}`, 'The change no longer applies; restore the file.');
      return { status: 'failed' };
    }
    const { summary, verdict } = only.run;
    return { status: 'ok', bug: { parts, buggy: summary, behavioural: verdict.behavioural, broken: verdict.broken } };
  }
  // Several files: only the tests that execute some change can tell B or an inverse state from O.
  const restricted = restrictTo(options, unionOfTests(parts.map((p) => p.tests)));
  const run = runCommand(facts.suite, 'b', { against: BASELINE_JSON, limit: 80, timeoutS: facts.runLimitS, ...restricted });
  const observation = yield bash(`${apply} && {\n${run}\n}`, `Apply the kept changes together and run ${restricted.files ? 'the tests that execute them' : 'the whole suite'}.`);
  const buggy = parseRunSummary(observation.text);
  const verdict = judgeAttempt(buggy, facts, options.minFailingTests, options.breadth);
  if (verdict.status === 'rejected' || !buggy) {
    yield bash(`cd /repo && git checkout -q -- ${shellQuoteAll(files)}`, 'That combination does not hold up; restore the files.');
    return { status: 'failed' };
  }
  const failing = new Set(verdict.behavioural);
  for (const part of parts) {
    const file = part.candidate.file;
    const revert = `cd /repo && git diff --no-color -- ${shellQuoteAll([file])} > ${WORK_DIR}/keep.diff && git checkout -q -- ${shellQuoteAll([file])}`;
    const inverse = runCommand(facts.suite, 'inv', { against: BASELINE_JSON, limit: 80, timeoutS: facts.runLimitS, ...restricted });
    const back = `cd /repo && git apply --whitespace=nowarn ${WORK_DIR}/keep.diff`;
    const seen = yield bash(`${revert}\n${inverse}\n${back}`, `Check that reverting ${file} alone fixes some failing test (every changed file must matter).`);
    const still = parseRunSummary(seen.text);
    const fixed = still ? [...failing].filter((id) => !still.broken.some((t) => t.id === id)) : [];
    if (fixed.length === 0) {
      yield bash(`cd /repo && git checkout -q -- ${shellQuoteAll(files)}`, `${file} does not contribute on its own; restore the files and keep searching.`);
      return { status: 'failed', culprit: part.candidate };
    }
  }
  return { status: 'ok', bug: { parts, buggy, behavioural: verdict.behavioural, broken: verdict.broken } };
}

function hasTurns(ctx: ProgramContext, needed: number): boolean {
  const { turnsLeft, tokensLeft } = ctx.budget;
  return (turnsLeft === null || turnsLeft >= needed) && (tokensLeft === null || tokensLeft >= 20_000);
}
