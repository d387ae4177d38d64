import { EngineError, isEngineError } from '../../util/engine-error.js';
import type { Endpoint } from '../endpoint.js';
import { defined } from '../defined.js';
import { JsonHttpClient } from '../http-client.js';
import type { SamplerLogprobs } from '../sampling-settings.js';
import { checkGenerationDefaults } from './check-generation-defaults.js';
import { probeChat } from './probe-chat.js';
import { probeProcessedLogprobs } from './probe-processed-logprobs.js';
import { probeTokenize } from './probe-tokenize.js';
import { readContextLength } from './read-context-length.js';
import { readServedModels } from './read-served-models.js';
import type { ServerFacts, ToolProtocolChoice } from './server-facts.js';

/** Room a reply needs on top of the prompt (the agent loop's own floor, MIN_RESPONSE_TOKENS). */
const MIN_REPLY_TOKENS = 256;

export interface PreflightOptions {
  endpoint: Endpoint;
  /** `chat`: the openai policy (probes `/v1/chat/completions`); `tokens`: the tokens policy. */
  mode: 'chat' | 'tokens';
  model?: string;
  toolProtocol?: ToolProtocolChoice;
  /** `--max-context`: the model's context when the server does not report one (the smaller wins when both do). */
  maxContext?: number;
  sampling?: { temperature?: number; top_p?: number; seed?: number };
  /** Tokens mode, `--sampler-logprobs`: `processed` is probed (probeProcessedLogprobs), never taken on trust. */
  samplerLogprobs?: SamplerLogprobs;
  /** Estimated tokens of the smallest first prompt of a role: a context below it cannot run an episode. */
  promptTokens?: number;
  /** For tests: the client to use (default: few, quick retries, so a dead server fails in about a second). */
  client?: JsonHttpClient;
  signal?: AbortSignal;
}

/**
 * Reads what a model server serves and how it takes requests, before the first episode: a server
 * that is down, answers HTML, refuses a parameter or has too small a context ends the command
 * here with one line (what was asked, what was expected, the flag that fixes it), instead of
 * every episode being discarded later.
 */
export async function runPreflight(options: PreflightOptions): Promise<ServerFacts> {
  const { root } = options.endpoint;
  const client = options.client ?? new JsonHttpClient({ apiKey: options.endpoint.apiKey, maxRetries: 1, retryBaseDelayMs: 500, requestTimeoutMs: 60_000 });
  const notes: string[] = [];
  try {
    const served = await readServedModels(client, root, options.signal);
    const model = options.model === undefined ? served[0]! : served.find((entry) => entry.id === options.model);
    if (model === undefined) {
      throw new EngineError('usage', `${root}/v1/models does not list the model "${options.model}" (it serves ${served.map((entry) => entry.id).join(', ')}): fix --model`);
    }
    const tokenizeLength = options.mode === 'tokens' ? await probeTokenize(client, root, model.id, options.toolProtocol !== 'text', options.signal) : undefined;
    if (options.mode === 'tokens') notes.push(...(await checkGenerationDefaults(client, root, model, options.signal)));
    if (options.mode === 'tokens' && options.samplerLogprobs === 'processed') await probeProcessedLogprobs(client, root, model.id, options.signal);
    const context = await resolveContext(client, root, model, options, notes, tokenizeLength);
    if (context && options.promptTokens !== undefined && context.tokens < options.promptTokens + MIN_REPLY_TOKENS) {
      throw new EngineError(
        'usage',
        `${model.id} at ${root} has a context of ${context.tokens} tokens (${context.source}), smaller than one prompt (~${options.promptTokens} tokens) plus ${MIN_REPLY_TOKENS} for a reply: ` +
          'serve it with a longer context (vLLM --max-model-len, SGLang --context-length) or use another --model',
      );
    }
    const facts = { root, models: served.map((entry) => entry.id), model: model.id, context, notes };
    if (options.mode === 'tokens') return { ...facts, toolProtocol: options.toolProtocol === 'text' ? 'text' : 'native', reportsUsage: null, sendsSeed: true };
    return { ...facts, ...(await chatProtocol(client, root, model.id, options, notes)) };
  } catch (error) {
    throw withFix(error, root);
  }
}

async function resolveContext(
  client: JsonHttpClient,
  root: string,
  model: { id: string; maxModelLen?: number },
  options: PreflightOptions,
  notes: string[],
  tokenizeLength: number | undefined,
): Promise<ServerFacts['context']> {
  const reported =
    (await readContextLength(client, root, model, options.signal)) ?? (tokenizeLength === undefined ? undefined : { tokens: tokenizeLength, source: 'tokenize max_model_len' as const });
  if (reported && options.maxContext !== undefined && options.maxContext < reported.tokens) return { tokens: options.maxContext, source: '--max-context' };
  if (reported) return reported;
  if (options.maxContext !== undefined) return { tokens: options.maxContext, source: '--max-context' };
  notes.push(`${root} does not report ${model.id}'s context length: turns are capped by --max-context-tokens only; pass --max-context N to match the server`);
  return null;
}

async function chatProtocol(
  client: JsonHttpClient,
  root: string,
  model: string,
  options: PreflightOptions,
  notes: string[],
): Promise<Pick<ServerFacts, 'toolProtocol' | 'reportsUsage' | 'sendsSeed'>> {
  const wanted = options.toolProtocol ?? 'auto';
  // Every turn carries a seed (the episode's plus the turn), so the probe sends one too.
  let sampling = { seed: 0, ...defined(options.sampling ?? {}) };
  let sendsSeed = true;
  const probe = async (withTools: boolean) => {
    let answer = await probeChat(client, { root, model, withTools, sampling, signal: options.signal });
    if (answer.status === 'rejected-field' && answer.field === 'seed') {
      notes.push(`${root}/v1/chat/completions rejects "seed" (${answer.reason}): turns are sent without one, so sampling is not reproducible`);
      sendsSeed = false;
      sampling = Object.fromEntries(Object.entries(sampling).filter(([key]) => key !== 'seed')) as typeof sampling;
      answer = await probeChat(client, { root, model, withTools, sampling, signal: options.signal });
    }
    if (answer.status === 'rejected-field') {
      throw new EngineError('usage', `${root}/v1/chat/completions rejects the request field "${answer.field}" (${answer.reason}): leave ${answer.flag} out`);
    }
    return answer;
  };
  let answer = await probe(wanted !== 'text');
  let toolProtocol: 'native' | 'text' = wanted === 'text' ? 'text' : 'native';
  if (answer.status === 'no-native-tools') {
    const why = `${root} refuses native tool calls (${answer.reason})`;
    if (wanted === 'native') throw new EngineError('usage', `${why}: start the server with a tool-call parser (vLLM: --enable-auto-tool-choice --tool-call-parser NAME) or pass --tool-protocol text`);
    notes.push(`${why}: using ssr's text protocol instead (--tool-protocol text skips this probe)`);
    toolProtocol = 'text';
    // A server that refused tools still answers plain chat: ask again without them.
    answer = await probe(false);
  }
  const reportsUsage = answer.status === 'accepted' && answer.reportsUsage;
  if (!reportsUsage) {
    notes.push(`${root}/v1/chat/completions returns no "usage": prompt tokens are estimated (~3 characters a token); pass --max-context N if turns still overflow`);
  }
  return { toolProtocol, reportsUsage, sendsSeed };
}

/** Every preflight failure ends with what to do; transport errors get the server-side fix. */
function withFix(error: unknown, root: string): unknown {
  if (!isEngineError(error) || error.code === 'usage' || /--[a-z-]+/.test(error.message)) return error;
  const fix = `expected an OpenAI-compatible server at ${root}: start it, or point --base-url at it`;
  return new EngineError(error.code, `${error.message}: ${fix}`, { retryable: error.retryable, cause: error });
}
