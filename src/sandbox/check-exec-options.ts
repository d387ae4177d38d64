import { EngineError } from '../util/engine-error.js';
import type { ExecOptions } from './sandbox.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `name` can be an environment variable name in every backend (a shell identifier). */
export function isValidEnvName(name: string): boolean {
  return ENV_NAME.test(name);
}

/**
 * Refuse, with a usage EngineError, exec options no backend can honour: a timeout that is not a
 * positive number, or an environment variable name that is not a shell identifier. Every backend
 * calls it first, so a caller's mistake reads the same whichever backend runs.
 */
export function checkExecOptions(options: ExecOptions): void {
  const timeoutMs = options.timeoutMs;
  if (timeoutMs !== undefined && (!Number.isFinite(timeoutMs) || timeoutMs <= 0)) {
    throw new EngineError('usage', `exec: timeoutMs must be a positive number, got ${timeoutMs}`);
  }
  const badName = Object.keys(options.env ?? {}).find((name) => !isValidEnvName(name));
  if (badName !== undefined) throw new EngineError('usage', `exec: invalid environment variable name ${JSON.stringify(badName)}`);
}
