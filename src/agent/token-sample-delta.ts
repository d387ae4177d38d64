import type { TokenSample } from '../policy/policy.js';
import { EngineError } from '../util/engine-error.js';
import type { StoredTokenSample } from './trajectory-record.js';

/**
 * A turn's sample as a format-2 line stores it: only the prompt ids the previous turn did not hold.
 * `previous` is the full sample of the step line before (undefined on the first step, or when that
 * step had none). A prompt that does not start with the previous prompt + completion keeps all of
 * its ids (prefix 0), so a broken episode reads back exactly as broken as it was.
 */
export function storeTokenSample(sample: TokenSample, previous: TokenSample | undefined): StoredTokenSample {
  const { promptTokenIds, ...sampled } = sample;
  const prefix = previous !== undefined && extendsTurn(promptTokenIds, previous) ? previous.promptTokenIds.length + previous.completionTokenIds.length : 0;
  return { promptPrefixTokens: prefix, promptTokenIdsAdded: promptTokenIds.slice(prefix), ...sampled };
}

/**
 * The full prompt ids of a stored turn: the previous turn's prompt + completion when the prefix
 * covers it, then the added ids. The one place a format-2 prompt is rebuilt.
 *
 * @throws EngineError `artifact-invalid-input` when the prefix is neither 0 nor exactly the length
 *   of the previous turn's prompt + completion (or there is no previous turn to take it from).
 */
export function reconstructPromptTokenIds(stored: StoredTokenSample, previous: TokenSample | undefined): number[] {
  const prefix = stored.promptPrefixTokens;
  if (prefix === 0) return [...stored.promptTokenIdsAdded];
  if (previous === undefined) throw new EngineError('artifact-invalid-input', `promptPrefixTokens ${prefix} but no previous step has a token sample`);
  const available = previous.promptTokenIds.length + previous.completionTokenIds.length;
  if (prefix !== available) {
    throw new EngineError('artifact-invalid-input', `promptPrefixTokens ${prefix} is neither 0 nor the previous turn's ${available} prompt + completion ids`);
  }
  return [...previous.promptTokenIds, ...previous.completionTokenIds, ...stored.promptTokenIdsAdded];
}

/** The in-memory {@link TokenSample} of a stored turn (see {@link reconstructPromptTokenIds}). */
export function restoreTokenSample(stored: StoredTokenSample, previous: TokenSample | undefined): TokenSample {
  const { promptPrefixTokens: _prefix, promptTokenIdsAdded: _added, ...sampled } = stored;
  return { promptTokenIds: reconstructPromptTokenIds(stored, previous), ...sampled };
}

/** Whether `prompt` starts with the previous turn's prompt then its completion (compared in place: no copy of the context). */
function extendsTurn(prompt: number[], previous: TokenSample): boolean {
  const head = previous.promptTokenIds;
  const tail = previous.completionTokenIds;
  if (prompt.length < head.length + tail.length) return false;
  for (let i = 0; i < head.length; i++) if (prompt[i] !== head[i]) return false;
  for (let i = 0; i < tail.length; i++) if (prompt[head.length + i] !== tail[i]) return false;
  return true;
}
