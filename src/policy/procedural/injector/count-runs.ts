import type { Steps } from '../program.js';

/** The line every test run of the Injector prints (runCommand): whether it ran the whole suite. */
export const SUITE_MARK = /^@@suite (full|restricted)$/gm;

/** The Injector's own test runs so far; metadata.json carries them (the episode's `injector` count). */
export interface InjectorRuns {
  full: number;
  restricted: number;
}

/** Add the runs one observation reports ({@link SUITE_MARK} lines) to `runs`. */
export function countRunsIn(text: string, runs: InjectorRuns): void {
  for (const match of text.matchAll(SUITE_MARK)) runs[match[1] as keyof InjectorRuns] += 1;
}

/**
 * `steps`, delegated to unchanged, with every test run it makes counted into `runs`: the count
 * comes from what the commands printed, so a run that a step's command made is counted whoever
 * wrote the command.
 */
export async function* countingRuns<T>(steps: Steps<T>, runs: InjectorRuns): Steps<T> {
  let next = await steps.next();
  try {
    while (!next.done) {
      const observation = yield next.value;
      countRunsIn(observation.text, runs);
      next = await steps.next(observation);
    }
    return next.value;
  } finally {
    // Cut off (the loop ended the episode): the wrapped program's `finally` blocks run too.
    if (!next.done) await steps.return(undefined as T);
  }
}
