import type { ServerFacts } from './server-facts.js';

/** The model server a run sampled from, as run.json records it. */
export interface ServerIdentity {
  /** vllm / sglang when the server's own routes told (its context source), else openai-compatible. */
  kind: 'vllm' | 'sglang' | 'openai-compatible';
  root: string;
  /** The served model id the run uses. */
  model: string;
  /** Every model the server lists. */
  models: string[];
  context: ServerFacts['context'];
  toolProtocol: ServerFacts['toolProtocol'];
}

/** What the preflight learned that identifies the server (no notes, no per-request switches). */
export function serverIdentity(facts: ServerFacts): ServerIdentity {
  const source = facts.context?.source ?? '';
  const kind = source.startsWith('vllm') ? 'vllm' : source.startsWith('sglang') ? 'sglang' : 'openai-compatible';
  return { kind, root: facts.root, model: facts.model, models: facts.models, context: facts.context, toolProtocol: facts.toolProtocol };
}
