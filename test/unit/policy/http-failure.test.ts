import { describe, expect, it } from 'vitest';
import { classifyFailure, type FailureEvidence } from '../../../src/policy/http-failure.js';

const url = 'http://127.0.0.1:9/v1/chat/completions';
const http = (status: number, body = '{"error":"x"}', retryAfter: string | null = null): FailureEvidence => ({ type: 'http', url, status, body, retryAfter });

describe('classifyFailure', () => {
  // [case, evidence, retried?, code, message after 4 attempts]
  it.each<[string, FailureEvidence, boolean, string, string]>([
    ['connection refused', { type: 'network', url, error: new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }) }, true, 'policy-unavailable', `cannot reach ${url}: ECONNREFUSED after 4 attempts`],
    ['connection reset', { type: 'network', url, error: new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }) }, true, 'policy-unavailable', `cannot reach ${url}: ECONNRESET after 4 attempts`],
    ['aggregate connect error', { type: 'network', url, error: new TypeError('fetch failed', { cause: { errors: [{ code: 'ECONNREFUSED' }] } }) }, true, 'policy-unavailable', 'ECONNREFUSED after 4 attempts'],
    ['timeout', { type: 'timeout', url, timeoutMs: 60_000 }, true, 'policy-unavailable', `request to ${url} timed out after 60 s (4 attempts)`],
    ['503', http(503, 'overloaded\n  try later'), true, 'policy-unavailable', `HTTP 503 from ${url}: overloaded try later (after 4 attempts)`],
    ['500', http(500), true, 'policy-unavailable', 'HTTP 500'],
    ['429', http(429), true, 'policy-unavailable', 'HTTP 429'],
    ['400', http(400, 'bad request: unknown field'), false, 'policy-unavailable', `HTTP 400 from ${url}: bad request: unknown field`],
    ['401', http(401, ''), false, 'policy-unavailable', 'HTTP 401 from http://127.0.0.1:9/v1/chat/completions: (empty body) (check --api-key / OPENAI_API_KEY)'],
    ['404', http(404), false, 'policy-unavailable', '(check --base-url and --model)'],
    ['vLLM context overflow', http(400, "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens."), false, 'policy-context-overflow', "prompt does not fit the model's context: HTTP 400"],
    ['OpenAI context overflow', http(400, '{"error":{"code":"context_length_exceeded","message":"too many tokens"}}'), false, 'policy-context-overflow', 'HTTP 400'],
    ['non-JSON success', { type: 'bad-json', url, body: 'OK proxy' }, false, 'policy-unavailable', `invalid JSON from ${url}: OK proxy`],
    ['an HTML page', { type: 'bad-json', url, body: '<html>proxy</html>' }, false, 'policy-unavailable', `HTML instead of JSON from ${url}: expected an OpenAI-compatible API (check --base-url)`],
    ['an HTML login page', { type: 'bad-json', url, body: '<!DOCTYPE html><html><head><title> Sign in </title>' }, false, 'policy-unavailable', `HTML instead of JSON from ${url} (page "Sign in")`],
  ])('%s', (_case, evidence, retried, code, message) => {
    const failure = classifyFailure(evidence);
    expect(failure.retryable).toBe(retried);
    const error = failure.toError(4);
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(retried);
    expect(error.message).toContain(message);
  });

  it('caps a long body head', () => {
    expect(classifyFailure(http(503, 'x'.repeat(5000))).toError(1).message.length).toBeLessThan(400);
  });

  it.each<[string, number | undefined]>([
    ['3', 3000],
    ['0', 0],
    ['soon', undefined],
  ])('reads Retry-After %s', (header, ms) => {
    expect(classifyFailure(http(429, '', header)).retryAfterMs).toBe(ms);
  });
});
