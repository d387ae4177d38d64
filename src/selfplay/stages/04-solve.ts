import { exitEarnsReward, type AgentExit, type ExitStatus } from '../../agent/agent-exit.js';
import { leakPenalty, type LeakFlag } from '../../agent/leak-flag.js';
import type { BugArtifact } from '../../artifact/bug-artifact.js';
import type { SolveAttempt } from '../../corpus/solves-record.js';
import { LIMIT_EXITS } from '../../rl/build-sample.js';
import { gradeSolution } from '../../roles/grade-solution.js';
import { runSolverEpisode } from '../../roles/solver-episode.js';
import { discardFromError, discardFromExit, discardText, engineStopped, type Discard } from '../discard.js';
import { attemptId, runSeed } from '../episode-ids.js';
import { roleLimits } from '../../roles/role-limits.js';
import type { TestRunCounter } from '../../harness/test-run-counts.js';
import { quarantineOf, runRepo, testTimeoutOf, type RunRepo, type SelfplayContext } from '../selfplay-context.js';

/** One Solver attempt, graded (method §4) or discarded (infrastructure: no reward). */
export interface AttemptOutcome {
  /** `<episode>-a<n>`: also its trajectory id. */
  id: string;
  n: number;
  status: SolveAttempt['status'];
  reward: 1 | -1 | null;
  /** Null when the attempt never started (the run was stopping). */
  exitStatus: ExitStatus | null;
  reason: string;
  turns: number;
  tokens: number;
  /** What the attempt's trajectory reached for that it must not (see scanLeaks); empty when it never ran. */
  leaks: LeakFlag[];
}

export interface SolveInput {
  episodeId: string;
  repo: string;
  /** The bug as the Solver gets it (an order-2 bug's bug_inject.diff already holds the prior patch). */
  artifact: BugArtifact;
  /** Tests passing on O (the grading oracle). */
  originalPassing: readonly string[];
  /** Validation's O run was guarded (ValidationResult.originalGuarded): grading holds attempts to it. */
  originalGuarded?: boolean;
  /** What the guard reported on O's own runs (ValidationResult.toleratedTampering). */
  toleratedTampering?: readonly string[];
  count: number;
  /** The episode's seed; every attempt forks its own, or N seeded attempts would be one attempt N times. */
  seed: number;
  /** The episode's count of test runs: each grading run is added. */
  testRuns?: TestRunCounter;
  /** Where the bug lives when not at the run repo's commit (an anchor bug mined at its fix commit): its repo and template. */
  target?: Pick<RunRepo, 'repo' | 'template'>;
}

/** As solves.json stores it. */
export function toSolveAttempt(outcome: AttemptOutcome): SolveAttempt {
  return { id: outcome.id, status: outcome.status, reward: outcome.reward, exitStatus: outcome.exitStatus, reason: outcome.reason };
}

const tokensOf = (exit: AgentExit): number => exit.usage.promptTokens + exit.usage.completionTokens;

/**
 * Stage 4 (solve): `count` Solver attempts on one bug, queued on the `solver` lane so they run in
 * parallel up to its size; each is graded on a fresh sandbox from the `sandbox` lane. The
 * trajectory of attempt n goes to `trajectories/<episode>-a<n>.jsonl`. With `--limit-hits fail` an
 * attempt that hit a turn, context or time limit is failed (−1) without grading.
 */
export async function solveStage(ctx: SelfplayContext, input: SolveInput): Promise<{ attempts: AttemptOutcome[]; durationMs: number }> {
  const started = Date.now();
  const numbers = Array.from({ length: input.count }, (_, i) => i + 1);
  const attempts = await Promise.all(numbers.map((n) => ctx.lanes.solver.add(() => runAttempt(ctx, input, n))));
  return { attempts, durationMs: Date.now() - started };
}

async function runAttempt(ctx: SelfplayContext, input: SolveInput, n: number): Promise<AttemptOutcome> {
  const id = attemptId(input.episodeId, n);
  // Declared before `discarded`, which reads it: an attempt discarded before its episode ran has none.
  let leaks: LeakFlag[] = [];
  const discarded = (discard: Discard, exit: AgentExit | null): AttemptOutcome => ({
    id, n, status: 'discarded', reward: null, exitStatus: exit?.exitStatus ?? null, reason: discardText(discard), turns: exit?.turns ?? 0, tokens: exit ? tokensOf(exit) : 0, leaks,
  });
  if (ctx.health.stopped) return discarded(engineStopped(ctx.health.stopped), null);
  const { repo, template } = input.target ?? runRepo(ctx, input.repo);
  // The golden gate's flaky tests judge nothing (see oracleOf's rule, applied to this oracle).
  const quarantine = quarantineOf(ctx, input.repo);
  const oracle = input.originalPassing.filter((id) => !quarantine.has(id));
  let exit: AgentExit | null = null;
  try {
    const episode = await runSolverEpisode({
      policy: ctx.policy, template, provider: ctx.provider, artifact: input.artifact, limits: roleLimits(ctx.settings.solverLimits, testTimeoutOf(ctx, repo)), testRunner: repo.testRunner,
      episodeId: id, seed: runSeed(input.seed, id), trajectoryPath: ctx.store.trajectoryPath(id), signal: ctx.health.signal,
    });
    exit = episode.exit;
    leaks = episode.leaks;
    if (!exitEarnsReward(exit.exitStatus)) {
      if (ctx.health.stopped) return discarded(engineStopped(ctx.health.stopped), exit);
      const discard = discardFromExit('solve', exit);
      await ctx.health.reportFailure(discard.code, discard.detail);
      return discarded(discard, exit);
    }
    const effort = { exitStatus: exit.exitStatus, turns: exit.turns, tokens: tokensOf(exit), leaks };
    // A leak under `fail` is −1 whatever the patch: what it found cannot be un-found.
    const penalty = leakPenalty(ctx.settings.leakPolicy, leaks);
    if (penalty !== null) return { id, n, status: 'failed', reward: -1, reason: penalty, ...effort };
    if (ctx.settings.limitHits === 'fail' && LIMIT_EXITS.has(exit.exitStatus)) {
      // method §9: a failed attempt that stays in its group, whatever it last submitted (not graded).
      ctx.health.reportSuccess();
      return { id, n, status: 'failed', reward: -1, reason: `limit hit: ${exit.exitStatus} (--limit-hits fail)`, ...effort };
    }
    const grade = await ctx.lanes.sandbox.add(() =>
      gradeSolution({
        provider: ctx.provider, template, artifact: input.artifact, patch: episode.patch, originalPassing: oracle, originalGuarded: input.originalGuarded, toleratedTampering: input.toleratedTampering ?? [], testTimeoutMs: testTimeoutOf(ctx, repo),
        ...(input.testRuns ? { testRuns: input.testRuns } : {}),
      }),
    );
    ctx.health.reportSuccess();
    return { id, n, status: grade.reward === 1 ? 'solved' : 'failed', reward: grade.reward, reason: grade.reason, ...effort };
  } catch (error) {
    const discard = discardFromError(exit ? 'grade' : 'solve', error);
    // An OOM kill is the patch's appetite, not a sick engine: discarded, but it must not count
    // towards stopping the run (a Solver that keeps eating memory would stop self-play).
    if (discard.code !== 'sandbox-oom') await ctx.health.reportFailure(discard.code, discard.detail);
    return discarded(ctx.health.stopped ? engineStopped(ctx.health.stopped) : discard, exit);
  }
}
