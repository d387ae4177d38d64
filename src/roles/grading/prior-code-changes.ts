import { sanitizePatch } from './sanitize-patch.js';

/** What of a failed attempt's patch may enter a higher-order bug, or why nothing may. */
export type PriorCodeChanges = { status: 'ok'; patch: string } | { status: 'none'; reason: string };

/**
 * The part of a failed Solver patch that becomes part of a higher-order bug (method §6): exactly what
 * grading applied of it ({@link sanitizePatch}), code changes only. Anything else — runner config,
 * start-up hooks, shadowing modules, symlinks, test files — would otherwise ride into the order-2
 * buggy state and change how its tests run for every later attempt (a `pytest.ini` that deselects
 * the failing tests would make every order-2 attempt +1).
 */
export function priorCodeChanges(patch: string, testFiles: readonly string[]): PriorCodeChanges {
  const sanitized = sanitizePatch(patch, testFiles);
  return sanitized.status === 'ok' ? { status: 'ok', patch: sanitized.patch } : { status: 'none', reason: `${sanitized.code}: ${sanitized.reason}` };
}
