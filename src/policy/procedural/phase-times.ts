import type { ProgramStep, Steps } from './program.js';

/**
 * The procedural Injector's phases, in the order an episode meets them: `discover` (helper
 * scripts, the file listing, the clean run), `trace` (the traced clean run: which tests execute
 * which lines), `memo` (packing those two runs' files for the run's later episodes, or writing
 * an earlier episode's back, after waiting for it when it is still under way: see DiscoveryMemo, sharedDiscovery), `read` (code files, the history log, the coverage lookup), `rejected` / `kept`
 * (the runs of candidate changes that were thrown away / kept), `confirm` (B: a kept change
 * applied again, or a combination run and each file reverted), `weaken` (hiding the bug in the
 * oracle files, with its runs), `write` (the artifact files and the submission).
 */
export const INJECTOR_PHASES = ['discover', 'trace', 'memo', 'read', 'rejected', 'kept', 'confirm', 'weaken', 'write'] as const;
export type InjectorPhase = (typeof INJECTOR_PHASES)[number];

/** Wall time spent per phase, ms: a phase with no step is absent. */
export type PhaseTimes = Partial<Record<string, number>>;

/** Add `ms` to `times[phase]`. */
export function addPhaseTime(times: PhaseTimes, phase: string, ms: number): void {
  times[phase] = (times[phase] ?? 0) + ms;
}

/**
 * `steps`, delegated to unchanged, with the time each of its tool calls took (from the step's
 * yield to the program's resumption: the call in the sandbox and the loop's own work around it)
 * added to the phase `phaseOf` names for that step. `now` is injectable for tests.
 */
export async function* timedSteps<T>(
  steps: Steps<T>,
  times: PhaseTimes,
  phaseOf: string | ((step: ProgramStep) => string),
  now: () => number = Date.now,
): Steps<T> {
  let next = await steps.next();
  try {
    while (!next.done) {
      const step = next.value;
      const started = now();
      const observation = yield step;
      addPhaseTime(times, typeof phaseOf === 'string' ? phaseOf : phaseOf(step), now() - started);
      next = await steps.next(observation);
    }
    return next.value;
  } finally {
    // Cut off (the loop ended the episode, ProceduralPolicy.endEpisode): unlike `yield*`, a loop
    // over next() does not pass the return on, and the wrapped program's `finally` blocks (a shared
    // discovery's release, which other episodes wait for) would never run.
    if (!next.done) await steps.return(undefined as T);
  }
}
