import type { TestRunner } from '../../../config/repos-schema.js';
import type { SeededRng } from '../../../util/seeded-rng.js';
import type { SolverBudget, Steps } from './ask.js';
import { planRepairs, type RepairAttempt } from './plan-repairs.js';
import { rankLines } from './rank-lines.js';
import { readSource } from './read-source.js';
import type { RunReport } from './run-report.js';
import type { SolverRun } from './solver-summary.js';
import { evaluateRepair, keepRepair, type AttemptLimits, type AttemptResult } from './try-repair.js';

/** The most suspicious lines considered per localisation round. */
const MAX_LINES = 80;
/** Files read per localisation round at most (each costs at least one turn). */
const MAX_FILES_PER_ROUND = 4;
/** Edits judged after a partial fix, looking for a better one, before it is kept. */
const LOOKAHEAD = 8;
/** Turns one tried edit costs (edit + test run) plus redoing it when it helps. */
export const ATTEMPT_TURNS = 3;

/** What the rounds of one episode share. */
export interface RoundState {
  budget: SolverBudget;
  run: SolverRun;
  /** Test files the runs cover; empty: the whole suite. */
  scope: string[];
  limits: AttemptLimits;
  /** The runner the tests run with (see `chooseRunner`); default pytest. */
  runner?: TestRunner;
  /** Code files read so far, as they stand now (kept edits applied). */
  sources: Map<string, string>;
  unreadable: Set<string>;
  /** Keys of edits already judged. */
  tried: Set<string>;
}

/** The edit a round kept, and the run with it in place. */
export interface KeptRepair {
  attempt: RepairAttempt;
  report: RunReport;
}

/**
 * One localise-and-repair round on what fails in `current`: rank the lines, read their files
 * lazily (a file only once one of its lines outranks every edit planned so far: reading costs
 * turns and most bugs sit in the first file), judge the planned edits in order and keep the first
 * that helps — or, if it only helps partly, the best of it and a few more (see {@link lookahead}):
 * kept edits are never undone, so a wrong partial fix would lead the rest of the episode astray.
 * Null when nothing helped within the budget.
 */
export async function* repairRound(state: RoundState, current: RunReport, rng: SeededRng): Steps<KeptRepair | null> {
  const { budget, sources, unreadable, tried } = state;
  // A line no failing test runs and no traceback passes near holds no evidence: never edit it.
  const ranked = rankLines(current, rng.fork('rank'))
    .filter((line) => line.score > 0)
    .slice(0, MAX_LINES);
  const plan = (): RepairAttempt[] => planRepairs(ranked, sources, { rng: rng.fork('plan'), tried });
  const files = [...new Set(ranked.map((line) => line.file))].filter((file) => !sources.has(file) && !unreadable.has(file)).slice(0, MAX_FILES_PER_ROUND);
  const bestScore = (file: string): number => ranked.find((line) => line.file === file)!.score;
  const affordable = (): boolean => budget.allowsAttempt(ATTEMPT_TURNS);
  const evaluate = async function* (attempt: RepairAttempt): Steps<AttemptResult> {
    budget.attempts++;
    tried.add(attempt.key);
    const result = yield* evaluateRepair(attempt, current, state.scope, { ...state.limits, runner: state.runner }, budget);
    if (!result.improved) budget.fruitless++;
    state.run.tried.push({ attempt, outcome: result.verdict });
    return result;
  };

  let queue = plan();
  for (;;) {
    const next = files[0];
    if (next !== undefined && (queue.length === 0 || bestScore(next) > queue[0]!.priority)) {
      files.shift();
      if (!budget.allows(1 + ATTEMPT_TURNS)) return null;
      const source = yield* readSource(next, budget);
      if (source === null) unreadable.add(next);
      else sources.set(next, source);
      queue = plan();
      continue;
    }
    const attempt = queue.shift();
    if (!attempt || !affordable()) return null;
    const result = yield* evaluate(attempt);
    if (!result.improved) continue;
    let best: KeptRepair = { attempt, report: result.improved };
    const helped = [attempt];
    for (const other of lookahead(queue, attempt)) {
      if (best.report.failedCount === 0 || !affordable()) break;
      queue.splice(queue.indexOf(other), 1);
      const judged = yield* evaluate(other);
      if (!judged.improved) continue;
      helped.push(other);
      if (judged.improved.failedCount < best.report.failedCount) best = { attempt: other, report: judged.improved };
    }
    if (!(yield* keepRepair(best.attempt, best.report, budget))) continue;
    budget.fruitless = 0;
    // The other edits that helped may fix what is left (a second bug): let later rounds plan them again.
    for (const other of helped) if (other !== best.attempt) tried.delete(other.key);
    return best;
  }
}

/**
 * The edits to judge after a partial fix before keeping one: the other edits of its line first
 * (a partial fix is often the wrong edit at the right place, `>` → `>=` where `<=` was meant),
 * then the next ones in plan order (a line just as suspicious may hold the real bug).
 */
export function lookahead(queue: readonly RepairAttempt[], partial: RepairAttempt): RepairAttempt[] {
  const sameLine = queue.filter((other) => other.file === partial.file && other.candidate.line === partial.candidate.line);
  const rest = queue.filter((other) => !sameLine.includes(other));
  return [...sameLine, ...rest].slice(0, LOOKAHEAD);
}
