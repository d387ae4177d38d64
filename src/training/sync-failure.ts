import { EngineError } from '../util/engine-error.js';

/**
 * The error that stops a run whose sampler did not take the new weights: the URL, the route,
 * what happened and what to do. Never retryable: training on would use stale samples.
 */
export function syncFailure(url: string, route: string, what: string, todo: string): EngineError {
  return new EngineError('policy-unavailable', `the sampler at ${url} did not load the new weights (${route}): ${what}. ${todo}`, { retryable: false });
}

/** The first 300 characters of a response body, on one line. */
export function bodyHead(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
