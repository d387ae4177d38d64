import { describe, expect, it } from 'vitest';
import { networkFailureIn } from '../../../src/selfplay/golden-gate/network-failure.js';

describe('networkFailureIn', () => {
  it.each([
    ['a DNS failure in Node', 'not ok 1 - fetches\n  error: getaddrinfo ENOTFOUND registry.npmjs.org\n', 'getaddrinfo ENOTFOUND registry.npmjs.org'],
    ['a DNS retry failure', "Error: getaddrinfo EAI_AGAIN api.github.com\n    at GetAddrInfoReqWrap.onlookup", 'getaddrinfo EAI_AGAIN api.github.com'],
    ['fetch failed, cause ENOTFOUND', "TypeError: fetch failed\n  [cause]: Error: getaddrinfo ENOTFOUND example.com\n", 'getaddrinfo ENOTFOUND example.com'],
    ['a refused connection to another host', 'Error: connect ECONNREFUSED 10.0.0.7:5432\n', 'connect ECONNREFUSED 10.0.0.7:5432'],
    ['an unreachable network', 'Error: connect ENETUNREACH 140.82.112.3:443 - Local (0.0.0.0:0)\n', 'connect ENETUNREACH 140.82.112.3:443'],
    ["Python's resolver", 'urllib.error.URLError: <urlopen error [Errno -3] Temporary failure in name resolution>\n', 'Temporary failure in name resolution'],
  ])('%s', (_label, log, found) => {
    expect(networkFailureIn(log)).toContain(found);
  });

  it.each([
    ['a test server of its own that is not up (loopback)', 'Error: connect ECONNREFUSED 127.0.0.1:3000\nError: connect ECONNREFUSED ::1:8080\n'],
    ['an ordinary failure', 'not ok 1 - adds\n  expected: 3\n  actual: 4\n'],
  ])('finds nothing in %s', (_label, log) => {
    expect(networkFailureIn(log)).toBeUndefined();
  });
});
