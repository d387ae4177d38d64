import { describe, expect, it } from 'vitest';
import { resolveEndpoint } from '../../../src/policy/endpoint.js';

describe('resolveEndpoint', () => {
  it.each<[string, string]>([
    ['http://h:8000', 'http://h:8000'],
    ['http://h:8000/', 'http://h:8000'],
    ['http://h:8000/v1', 'http://h:8000'],
    ['http://h:8000/v1/', 'http://h:8000'],
    ['https://api.example.com/openai/v1', 'https://api.example.com/openai'],
  ])('%s → %s', (baseUrl, root) => {
    expect(resolveEndpoint({ baseUrl }, {}).root).toBe(root);
  });

  it('falls back to OPENAI_BASE_URL and OPENAI_API_KEY; flags win', () => {
    const env = { OPENAI_BASE_URL: 'http://env:1/v1', OPENAI_API_KEY: 'sk-env' };
    expect(resolveEndpoint({}, env)).toEqual({ root: 'http://env:1', apiKey: 'sk-env' });
    expect(resolveEndpoint({ baseUrl: 'http://flag:2', apiKey: 'sk-flag' }, env)).toEqual({ root: 'http://flag:2', apiKey: 'sk-flag' });
  });

  it.each<[string, string | undefined, string]>([
    ['nothing configured', undefined, 'no model endpoint: pass --base-url or set OPENAI_BASE_URL'],
    ['not a URL', '::nope', 'not a URL'],
    ['host:port without a scheme', 'localhost:8000', 'expected http:// or https://'],
    ['wrong scheme', 'ftp://h/v1', 'expected http:// or https://'],
  ])('usage error: %s', (_case, baseUrl, message) => {
    expect(() => resolveEndpoint({ baseUrl }, { OPENAI_BASE_URL: ' ' })).toThrow(message);
  });
});
