/** Loopback is inside the sandbox too: a refused connection there is a test's own server, not the missing network. */
const LOOPBACK = /^(127\.|::1|\[::1\]|localhost|0\.0\.0\.0)/;

const SIGNS: readonly RegExp[] = [
  /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) [^\s'",)]+/,
  /\b(?:ENOTFOUND|EAI_AGAIN)\b[^\n]{0,80}/,
  /connect (?:ECONNREFUSED|ENETUNREACH|EHOSTUNREACH) [^\s'",)]+/,
  /\b(?:ENETUNREACH|EHOSTUNREACH)\b[^\n]{0,80}/,
  /Temporary failure in name resolution|Name or service not known|\[Errno (?:101|-2|-3)\][^\n]{0,80}|Network is unreachable/,
];

/**
 * The first sign in a test log that a test tried to reach another host (a DNS failure, a refused
 * or unreachable connection to a non-loopback address): the sandbox runs tests without network,
 * so a suite that needs it fails there and nowhere else. Undefined when the log shows none.
 */
export function networkFailureIn(log: string): string | undefined {
  for (const sign of SIGNS) {
    for (const match of log.matchAll(new RegExp(sign.source, 'g'))) {
      const text = match[0].trim();
      const address = /^connect \w+ (.+)$/.exec(text)?.[1];
      if (address !== undefined && LOOPBACK.test(address)) continue;
      return text.slice(0, 160);
    }
  }
  return undefined;
}

/** The sentence a refusal adds when a clean run's log shows a network failure. */
export function noNetworkHint(failure: string): string {
  return (
    `; its log shows a test reaching the network (${failure}), and sandboxes run tests without network ` +
    '(dependencies are installed at image build, the only time ssr reaches the network): mock those calls, or leave the tests that need the network out of the suite'
  );
}
