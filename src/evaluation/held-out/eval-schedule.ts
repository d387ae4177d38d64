/**
 * Whether the policy is evaluated on the held-out set after step `step`: every `every`-th step,
 * and the run's last step (`steps`), so a run always ends with a held-out figure. Without `every`
 * (`--eval-set` alone), the last step only. Pure.
 */
export function evaluationDue(step: number, every: number | undefined, steps: number): boolean {
  return step === steps || (every !== undefined && step % every === 0);
}

/** The steps of 1..`steps` that are evaluated, in order. Pure. */
export function evaluationSteps(every: number | undefined, steps: number): number[] {
  return Array.from({ length: steps }, (_, i) => i + 1).filter((step) => evaluationDue(step, every, steps));
}
