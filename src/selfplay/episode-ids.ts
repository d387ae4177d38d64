import { createHash } from 'node:crypto';
import { seededRng } from '../util/seeded-rng.js';

/**
 * Ids of a self-play run. They are pure functions of the run's settings (step, repo, index,
 * seed), never of time or chance, so a re-run of the same command finds the work already done
 * under the same ids (the resume key of the run store) and the same seeds re-draw the same
 * strategies and samples.
 */

const hash8 = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 8);

/** An order-1 episode: `s<step>-<repo>-<index>-<hash>`; `bugId` is set in solve-only mode (the corpus bug). */
export function episodeId(input: { step: number; repo: string; index: number; seed: number; bugId?: string }): string {
  const { step, repo, index, seed, bugId } = input;
  return `s${step}-${repo}-${index}-${hash8(JSON.stringify([seed, step, repo, index, bugId ?? null]))}`;
}

/** The order-2 episode grown from attempt `attemptId` of a parent episode. */
export function higherOrderEpisodeId(parentEpisodeId: string, attemptId: string): string {
  return `${parentEpisodeId}-o2-${attemptId.slice(attemptId.lastIndexOf('-') + 1)}`;
}

/** The Injector's trajectory (and agent episode) id of an episode. */
export function injectorRunId(episode: string): string {
  return `${episode}-inject`;
}

/** Solver attempt `n` (1-based) of an episode: also its trajectory id. */
export function attemptId(episode: string, n: number): string {
  return `${episode}-a${n}`;
}

/** Whether `attempt` is one of `episode`'s attempts (solves.json of a bug may hold several episodes' attempts). */
export function isAttemptOf(attempt: string, episode: string): boolean {
  return /^a\d+$/.test(attempt.slice(episode.length + 1)) && attempt.startsWith(`${episode}-`);
}

/** The sampling seed of an agent run, derived from the run seed and its id. */
export function runSeed(seed: number, id: string): number {
  return seededRng(`${seed}:${id}`).int(2 ** 31);
}

/** The attempt number n of an attempt id `<episode>-a<n>`. */
export function attemptNumber(attempt: string): number {
  return Number(attempt.slice(attempt.lastIndexOf('-a') + 2));
}
