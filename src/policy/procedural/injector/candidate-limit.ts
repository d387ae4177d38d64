import type { CandidateTests } from './covering-tests.js';
import type { RepoFacts } from './repo-facts.js';
import { timedOut, type RunSummary } from './run-summary.js';
import { groupOfFile } from './test-suite.js';

/**
 * How long one candidate's run may take. A candidate that makes a test loop forever costs its
 * whole limit, and a run that hits the limit is only rejected (judgeAttempt: a lost candidate,
 * never a wrong verdict), so the limit is cut close to what the run should take: the clean run's
 * time for the test files it runs (pytest's per-file durations; the whole clean run otherwise),
 * times {@link CANDIDATE_FACTOR} and the episode's {@link CandidatePace}, plus a few seconds.
 * Never less than {@link CANDIDATE_FLOOR_S} nor the whole clean suite's time at that pace, never more than the suite's run limit
 * (facts.runLimitS, which every other run keeps).
 */

/**
 * A candidate's run may take this many times what its tests took on the clean tree: a kept
 * candidate's run of h11 took 2.1–5.7× the clean suite (failing tests format tracebacks, h11's
 * socket tests wait for a closed peer), on an idle machine and at load 16 alike…
 */
export const CANDIDATE_FACTOR = 6;
/** …plus this many seconds (interpreter start-up jitter on a loaded machine). */
export const CANDIDATE_SLACK_S = 2;
/** No candidate's run gets less, s: a small suite's clean run measured at a quiet moment is no promise under a load spike. */
export const CANDIDATE_FLOOR_S = 5;
/** A finished run that took R times its estimate lets the next ones take R / this times theirs, times the factor (2 R). */
const PACE_DIVISOR = 3;
/** After a run that hit its limit, the next limits grow by this (a loaded machine, not a loop, may have caused it). */
const TIMEOUT_GROWTH = 1.5;

/**
 * How much slower than the clean run this episode's candidate runs have been (at least 1): the
 * largest ratio of a finished run's time to its clean estimate, grown after each timeout. The
 * clean run may come from an earlier episode (the discovery memo) under another load; the
 * episode's own runs say what the machine does now.
 */
export interface CandidatePace {
  slowdown: number;
  /**
   * How crowded the machine is as the run starts (runnable tasks per core, at least 1): a load
   * spike slows the run by about this much, so the limit grows with it (never past the suite's
   * run limit). Idle, the limit stays tight; on a busy CI machine it is the suite's old limit.
   */
  crowding?: () => number;
}

/** Seconds a run of `tests` should take on the clean tree: the clean run's start-up share plus its files' durations; null: the clean run was not timed. */
export function expectedRunS(facts: RepoFacts, tests: CandidateTests): number | null {
  const cleanMs = Number(facts.baseline.markers.get('ms'));
  if (!Number.isFinite(cleanMs)) return null;
  const cleanS = cleanMs / 1000;
  const durations = facts.baseline.durations;
  if (tests.status === 'full' || durations.size === 0) return cleanS;
  let timed = 0;
  for (const seconds of durations.values()) timed += seconds;
  // Interpreter start-up, collection and the tests too quick to be listed: every run pays them.
  let expected = Math.max(0, cleanS - timed);
  for (const file of new Set(tests.files.map((f) => groupOfFile(facts.suite, f)))) expected += durations.get(file) ?? 0;
  return Math.min(cleanS, expected);
}

/** The limit of one candidate's run, s (see the module comment). */
export function candidateLimitS(facts: RepoFacts, tests: CandidateTests, pace: CandidatePace): number {
  const expected = expectedRunS(facts, tests);
  if (expected === null) return facts.runLimitS;
  const cleanS = Number(facts.baseline.markers.get('ms')) / 1000;
  const slowdown = Math.max(pace.slowdown, pace.crowding?.() ?? 1);
  const limit = Math.max(CANDIDATE_FLOOR_S, Math.ceil(slowdown * cleanS), Math.ceil(slowdown * CANDIDATE_FACTOR * expected + CANDIDATE_SLACK_S));
  return Math.min(facts.runLimitS, limit);
}

/** Learn from one candidate's run: a finished one raises the pace so a run as slow gets twice its time, a timed-out one grows it. */
export function updatePace(pace: CandidatePace, facts: RepoFacts, tests: CandidateTests, summary: RunSummary | null): void {
  if (!summary) return;
  if (timedOut(summary)) {
    pace.slowdown *= TIMEOUT_GROWTH;
    return;
  }
  const expected = expectedRunS(facts, tests);
  const tookMs = Number(summary.markers.get('ms'));
  if (expected === null || expected <= 0 || !Number.isFinite(tookMs)) return;
  pace.slowdown = Math.max(pace.slowdown, tookMs / 1000 / expected / PACE_DIVISOR);
}
