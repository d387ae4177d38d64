/**
 * The completion cap of one turn: the smaller of the request's (the agent loop passes the room left
 * in its context budget) and the configured per-turn cap (`--max-tokens`). Taking the request's
 * alone would ignore `--max-tokens` in every agent run.
 */
export function turnCap(requested: number | undefined, configured: number | undefined): number | undefined {
  if (requested === undefined) return configured;
  return configured === undefined ? requested : Math.min(requested, configured);
}
