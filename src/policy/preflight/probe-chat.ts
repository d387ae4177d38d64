import { defined } from '../defined.js';
import type { JsonHttpClient } from '../http-client.js';
import { httpRejection } from '../http-failure.js';

/** What a one-token chat request told about the server. */
export type ChatProbe =
  | { status: 'accepted'; reportsUsage: boolean }
  /** The server refuses `tools` with `tool_choice: "auto"` (vLLM without a tool-call parser). */
  | { status: 'no-native-tools'; reason: string }
  /** The server refuses a sampling field ssr sent (`seed`, `temperature`, `top_p`). */
  | { status: 'rejected-field'; field: string; flag: string; reason: string };

export interface ChatProbeOptions {
  root: string;
  model: string;
  /** Offer one tool with `tool_choice: "auto"`, as every native-mode turn does. */
  withTools: boolean;
  /** Sent as the run will send them, so a server that rejects one says so now. */
  sampling: { temperature?: number; top_p?: number; seed?: number };
  signal?: AbortSignal;
}

const PROBE_TOOL = {
  type: 'function',
  function: { name: 'ping', description: 'Answer the ping.', parameters: { type: 'object', properties: {}, required: [] } },
};

/** Phrases servers use when tools or automatic tool choice are not enabled. */
const NO_NATIVE_TOOLS = /enable-auto-tool-choice|tool-call-parser|tool[ _]choice|tools? (?:is|are) not supported|does not support tools|\btools\b/i;

/** The flag that sets each request field ssr sends. */
const FLAG_OF: Record<string, string> = { seed: '--seed', temperature: '--temperature', top_p: '--top-p', max_tokens: '--max-tokens', model: '--model' };

/**
 * Asks for one token with the run's sampling parameters (and one tool when native calls are
 * wanted). Cheap on any server, and the answer shows whether native tool calls are accepted,
 * whether a sampling parameter is refused, and whether responses carry `usage`.
 */
export async function probeChat(client: JsonHttpClient, options: ChatProbeOptions): Promise<ChatProbe> {
  const url = `${options.root}/v1/chat/completions`;
  const body = {
    model: options.model,
    messages: [{ role: 'user', content: 'ping' }],
    max_tokens: 1,
    ...(options.withTools ? { tools: [PROBE_TOOL], tool_choice: 'auto' } : {}),
    ...defined(options.sampling),
  };
  let response: unknown;
  try {
    response = await client.postJson(url, body, options.signal);
  } catch (error) {
    const rejection = httpRejection(error);
    if (rejection === undefined || rejection.status >= 500) throw error;
    const field = Object.keys(FLAG_OF).find((key) => key in body && new RegExp(`\\b${key}\\b`).test(rejection.body));
    if (field !== undefined && field !== 'model') return { status: 'rejected-field', field, flag: FLAG_OF[field]!, reason: head(rejection.body) };
    if (options.withTools && NO_NATIVE_TOOLS.test(rejection.body)) return { status: 'no-native-tools', reason: head(rejection.body) };
    throw error;
  }
  const usage = (response as { usage?: { prompt_tokens?: unknown } })?.usage;
  return { status: 'accepted', reportsUsage: typeof usage?.prompt_tokens === 'number' };
}

function head(body: string): string {
  let text = body;
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: { message?: unknown } };
    const message = parsed?.error?.message ?? parsed?.message;
    if (typeof message === 'string') text = message;
  } catch {
    // Not JSON: quote the body itself.
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
