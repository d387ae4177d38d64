import type { EpisodeRecord } from '../../corpus/episode-record.js';
import { scoreInjector } from '../../reward/score-injector.js';
import { discardText, type Discard } from '../discard.js';
import type { AttemptOutcome } from './04-solve.js';

/** What the Injector's side of an episode came to, for its reward (method §5). */
export type InjectorVerdict =
  /** Nothing (usable) was submitted: −1, like an invalid artifact. */
  | { kind: 'no-artifact' }
  | { kind: 'invalid'; failedCheck: string }
  | { kind: 'valid' }
  /** Order 2 or solve-only: the bug is not this episode's Injector's, so no injector reward. */
  | { kind: 'none' };

export interface ScoreInput {
  verdict: InjectorVerdict;
  attempts: readonly Pick<AttemptOutcome, 'status' | 'reward'>[];
  /** Attempts the run asked for; 0 = no solving (a valid bug then earns no injector reward). */
  attemptsWanted: number;
  alpha: number;
}

export interface Score {
  injector: number | null;
  /** One per scored attempt, in attempt order. */
  solver: number[];
  scored: number;
  solved: number;
  /** Set when the episode cannot be scored (a bug to solve, and no attempt was scored). */
  discard: Discard | null;
}

/**
 * Stage 5 (score), the pure part: Solver rewards are the graded ±1 of every scored attempt;
 * the Injector earns −1 for no or an invalid artifact, else method §5 over the solve rate of the
 * scored attempts. Discarded attempts count nowhere. A bug with attempts wanted and none scored
 * has no solve rate: the episode is discarded rather than rewarded on nothing.
 */
export function scoreEpisode(input: ScoreInput): Score {
  const scored = input.attempts.filter((attempt) => attempt.status !== 'discarded' && attempt.reward !== null);
  const solver = scored.map((attempt) => attempt.reward!);
  const solved = scored.filter((attempt) => attempt.status === 'solved').length;
  const base = { solver, scored: scored.length, solved, discard: null };
  const { verdict } = input;
  if (verdict.kind === 'no-artifact' || verdict.kind === 'invalid') return { ...base, injector: scoreInjector({ valid: false, solves: 0, attempts: 0 }).value };
  if (input.attemptsWanted > 0 && scored.length === 0) {
    const discard = { category: 'solve:no-scored-attempt', detail: `none of the ${input.attempts.length} Solver attempt(s) could be scored` };
    return { injector: null, solver: [], scored: 0, solved: 0, discard };
  }
  if (verdict.kind === 'none' || input.attemptsWanted === 0) return { ...base, injector: null };
  return { ...base, injector: scoreInjector({ valid: true, solves: solved, attempts: scored.length, alpha: input.alpha }).value };
}

/** The identity of an episode record: who ran it, on what. */
export type EpisodeIdentity = Pick<EpisodeRecord, 'id' | 'step' | 'repo' | 'strategy' | 'order' | 'parentBugId' | 'attemptOf' | 'policyVersion' | 'strategyNote' | 'anchor'>;

export interface RecordInput {
  identity: EpisodeIdentity;
  bugId: string | null;
  valid: boolean | null;
  failedCheck: string | null;
  score: Score | null;
  /** Set for an episode lost to the infrastructure (wins over a score). */
  discard: Discard | null;
  durationsMs: EpisodeRecord['durationsMs'];
  turns: number;
  tokens: number;
  /** Leak flags of the episode's Solver attempts (see scanLeaks). */
  leaks?: EpisodeRecord['leaks'];
  /** How the Injector's run ended (order 1, when it ran). */
  injectorExit?: EpisodeRecord['injectorExit'];
  /** The valid bug of the run with the same buggy tree, when this one duplicates it. */
  duplicateOf?: string;
  /** Test runs the episode made, by kind (absent: nobody counted, e.g. a discard before any run). */
  testRuns?: EpisodeRecord['testRuns'];
  /** Where the inject stage's time went (order 1, when the Injector ran). */
  injectPhasesMs?: EpisodeRecord['injectPhasesMs'];
}

/** The episodes.jsonl line of an episode; a discarded one carries its reason and no reward. */
export function buildEpisodeRecord(input: RecordInput): EpisodeRecord {
  const discard = input.discard ?? input.score?.discard ?? null;
  const counted = discard === null && input.score !== null;
  return {
    ...input.identity,
    status: discard === null ? 'completed' : 'discarded',
    discardReason: discard === null ? null : discardText(discard),
    bugId: input.bugId,
    valid: input.valid,
    failedCheck: input.failedCheck,
    solverAttempts: counted ? input.score!.scored : 0,
    solved: counted ? input.score!.solved : 0,
    rewards: counted ? { injector: input.score!.injector, solver: input.score!.solver } : { injector: null, solver: [] },
    durationsMs: input.durationsMs,
    turns: input.turns,
    tokens: input.tokens,
    leaks: input.leaks ?? [],
    ...(input.injectorExit ? { injectorExit: input.injectorExit } : {}),
    ...(input.duplicateOf ? { duplicateOf: input.duplicateOf } : {}),
    ...(input.testRuns ? { testRuns: input.testRuns } : {}),
    ...(input.injectPhasesMs ? { injectPhasesMs: input.injectPhasesMs } : {}),
  };
}
