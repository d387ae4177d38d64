import { expect } from 'vitest';
import { EngineError } from '../../src/util/engine-error.js';

/** The EngineError `promise` rejects with (the test fails when it resolves or rejects otherwise). */
export async function rejection(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}
