/**
 * What judging one instance came to: `judged` (every attempt scored, or the instance found
 * invalid), `incomplete` (some attempt discarded for infrastructure), `not-judged`
 * (infrastructure kept the instance from any verdict: its image, its validation).
 */
export type JudgeOutcome = 'judged' | 'incomplete' | 'not-judged';

/** How a pass over a set ended: instances tried a second time, and those still without a full verdict after it. */
export interface RetryCounts {
  retried: number;
  /** Instances infrastructure kept from any verdict twice. */
  notJudged: string[];
  /** Instances with attempts discarded twice (their scored attempts count, the rest do not). */
  incomplete: string[];
}

/**
 * Judge every instance, then once more (only) those infrastructure kept from a full verdict: a
 * Docker hiccup costs one instance a second try instead of a hole in a held-out curve, and a
 * failure that repeats is recorded, not retried forever. `judge` runs only what is missing
 * (graded attempts are never redone). Pure orchestration: the judging is the caller's.
 */
export async function judgeWithRetry<T>(
  items: readonly T[],
  judge: (item: T, index: number, retry: boolean) => Promise<JudgeOutcome>,
  id: (item: T) => string,
): Promise<RetryCounts> {
  const first = await Promise.all(items.map((item, index) => judge(item, index, false)));
  const again = items.map((item, index) => ({ item, index })).filter(({ index }) => first[index] !== 'judged');
  const second = await Promise.all(again.map(({ item, index }) => judge(item, index, true)));
  const still = (outcome: JudgeOutcome) => again.filter((_, i) => second[i] === outcome).map(({ item }) => id(item));
  return { retried: again.length, notJudged: still('not-judged'), incomplete: still('incomplete') };
}
