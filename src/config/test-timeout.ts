import type { Limits } from './repos-schema.js';

/**
 * The one place a test-script time limit is resolved, ms: an explicit override (a `--test-timeout`
 * flag or a caller's setting, already in ms) wins, else the repo's `limits.test_timeout_s`. Every
 * command, the validator, the Injector prompt and self-play read it here, so the seconds-to-ms rule
 * and the precedence cannot drift apart.
 */
export function resolveTestTimeoutMs(repo: { limits: Pick<Limits, 'test_timeout_s'> }, overrideMs?: number): number {
  return overrideMs ?? repo.limits.test_timeout_s * 1000;
}

/** A `--test-timeout <seconds>` flag value as ms, or undefined when the flag was not given. */
export function flagSecondsToMs(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : seconds * 1000;
}
