import { EngineError } from './engine-error.js';

// Parsers of numeric flag values, each a usage error naming the flag. They sit in util, not in
// cli/, because the bench and measurement entry points under selfplay/ and training/ parse flags
// too and must not import the CLI (the layer above them); cli/common-options.ts re-exports them.

/** Parses a positive (finite) number flag value with a specific error. */
export function positiveNumber(flag: string): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0) throw new EngineError('usage', `${flag}: expected a positive number, got "${value}"`);
    return parsed;
  };
}

/** Parses a positive integer flag value with a specific error. */
export function positiveInt(flag: string): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed <= 0) throw new EngineError('usage', `${flag}: expected a positive integer, got "${value}"`);
    return parsed;
  };
}

/** Parses a non-negative integer flag value (0 allowed) with a specific error. */
export function nonNegativeInt(flag: string): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isInteger(parsed) || parsed < 0) throw new EngineError('usage', `${flag}: expected a non-negative integer, got "${value}"`);
    return parsed;
  };
}
