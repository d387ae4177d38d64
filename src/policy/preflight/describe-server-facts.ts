import type { ServerFacts } from './server-facts.js';

/** The one line a run prints about its model server, e.g. for `ssr inject` and `ssr doctor --base-url`. */
export function describeServerFacts(facts: ServerFacts, mode: 'chat' | 'tokens'): string {
  const context = facts.context ? `context ${facts.context.tokens} tokens (${facts.context.source})` : 'context unknown';
  const calls = mode === 'tokens' ? 'tool calls parsed from sampled text' : facts.toolProtocol === 'native' ? 'native tool calls' : "ssr's text protocol";
  const usage = facts.reportsUsage === false ? ', no usage reported' : '';
  return `${facts.model} at ${facts.root}: ${context}, ${calls}${usage}`;
}
