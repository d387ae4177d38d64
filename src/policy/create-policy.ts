import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ScriptedStep } from './scripted-policy.js';
import { EngineError, errorMessage } from '../util/engine-error.js';
import { resolveEndpoint, type Env } from './endpoint.js';
import { OpenAIPolicy, type OpenAIPolicyOptions } from './openai-policy.js';
import { describeServerFacts } from './preflight/describe-server-facts.js';
import { runPreflight } from './preflight/run-preflight.js';
import type { ServerFacts, ToolProtocolChoice } from './preflight/server-facts.js';
import type { ToolParserName } from './text-protocol/tool-parsers/tool-parsers.js';
import type { Policy } from './policy.js';
import { resolveSamplingSettings, type SamplerLogprobs } from './sampling-settings.js';
import { TokensPolicy } from './tokens-policy.js';

export const POLICY_KINDS = ['openai', 'tokens', 'procedural', 'scripted'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** The policy flags of every command that runs episodes (see src/cli/policy-options.ts). */
export interface PolicyFlags {
  policy?: PolicyKind;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  temperature?: number;
  topP?: number;
  /** Tokens mode only (-1 or unset: none). */
  topK?: number;
  /** Tokens mode: what the server's log-probs are (see TokensPolicyOptions.samplerLogprobs). */
  samplerLogprobs?: SamplerLogprobs;
  maxTokens?: number;
  seed?: number;
  /** `scripted` from the CLI: a JSON file holding an array of ScriptedTurn objects. */
  policyScript?: string;
  /** How tool calls travel (openai): `auto` (default) probes the server and falls back to text. */
  toolProtocol?: ToolProtocolChoice;
  /** How tool calls written as text are read (tokens mode, and text replies in openai mode). */
  toolParser?: ToolParserName;
  /** The model's context when the server does not report it (the smaller wins when both do). */
  maxContext?: number;
  /** Estimated tokens of a role's first prompt (set by the CLI): a smaller context fails the preflight. */
  promptTokens?: number;
}

export interface CreatePolicyOptions extends PolicyFlags {
  env?: Env;
  /** `scripted` from code: the script itself (wins over `policyScript`). */
  scriptedSteps?: ScriptedStep[];
  /** Ask the server what it serves before building an HTTP policy (default true; see runPreflight). */
  preflight?: boolean;
  /** Where the preflight's one-line summary and notes go. Default: stderr. */
  log?: (line: string) => void;
  /** Told what the preflight learned about the server (run.json records it). */
  onServerFacts?: (facts: ServerFacts) => void;
}

/** `--policy` when given; otherwise `openai` if an endpoint is configured, else the model-free `procedural`. */
export function resolveDefaultPolicy(flags: PolicyFlags, env: Env = process.env): PolicyKind {
  if (flags.policy !== undefined) return flags.policy;
  const endpoint = flags.baseUrl ?? env.OPENAI_BASE_URL;
  return endpoint !== undefined && endpoint.trim() !== '' ? 'openai' : 'procedural';
}

/** Builds the policy the flags ask for. Endpoint problems surface as usage errors here, not mid-episode. */
export async function createPolicy(options: CreatePolicyOptions): Promise<Policy> {
  const env = options.env ?? process.env;
  const kind = resolveDefaultPolicy(options, env);
  const http = {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    model: options.model,
    temperature: options.temperature,
    topP: options.topP,
    maxTokens: options.maxTokens,
    seed: options.seed,
    env,
  };
  switch (kind) {
    case 'openai':
    case 'tokens':
      return createHttpPolicy(kind, http, options);
    case 'procedural':
      return createProceduralPolicy(options.seed);
    case 'scripted':
      return createScriptedPolicy(options);
  }
}

type HttpSettings = Omit<OpenAIPolicyOptions, 'toolProtocol' | 'contextLength' | 'toolParser' | 'sendSeed'>;

/** An HTTP policy, built from what the preflight read from its server (unless told to skip it). */
async function createHttpPolicy(kind: 'openai' | 'tokens', http: HttpSettings, options: CreatePolicyOptions): Promise<Policy> {
  const mode = kind === 'openai' ? 'chat' : 'tokens';
  // Sampling settings the tokens policy must refuse are a usage error: say so before asking the server anything.
  if (kind === 'tokens') resolveSamplingSettings({ ...http, topK: options.topK, samplerLogprobs: options.samplerLogprobs });
  const settings = { ...http, toolParser: options.toolParser, contextLength: options.maxContext };
  let toolProtocol: 'native' | 'text' = options.toolProtocol === 'text' ? 'text' : 'native';
  let sendSeed = true;
  if (options.preflight !== false) {
    const facts = await runPreflight({
      endpoint: resolveEndpoint(http, http.env),
      mode,
      model: http.model,
      toolProtocol: options.toolProtocol,
      maxContext: options.maxContext,
      sampling: { temperature: http.temperature, top_p: http.topP, seed: http.seed },
      samplerLogprobs: options.samplerLogprobs,
      promptTokens: options.promptTokens,
    });
    const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
    log(`model server: ${describeServerFacts(facts, mode)}`);
    for (const note of facts.notes) log(`model server: ${note}`);
    options.onServerFacts?.(facts);
    Object.assign(settings, { model: facts.model, contextLength: facts.context?.tokens });
    toolProtocol = facts.toolProtocol;
    sendSeed = facts.sendsSeed;
  }
  if (kind === 'openai') return new OpenAIPolicy({ ...settings, toolProtocol, sendSeed });
  return new TokensPolicy({ ...settings, toolProtocol: toolProtocol === 'text' ? 'text' : 'template', topK: options.topK, samplerLogprobs: options.samplerLogprobs });
}

// A variable specifier: the procedural policy is optional in a build, and tsc must not require it.
const PROCEDURAL_MODULE = './procedural/procedural-policy.js';

async function createProceduralPolicy(seed: number | undefined): Promise<Policy> {
  let module: { ProceduralPolicy?: new (options: { seed?: number }) => Policy };
  try {
    module = (await import(/* @vite-ignore */ PROCEDURAL_MODULE)) as typeof module;
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new EngineError('usage', 'the procedural policy is not available in this build', { cause: error });
  }
  if (module.ProceduralPolicy === undefined) throw new EngineError('usage', 'the procedural policy is not available in this build');
  return new module.ProceduralPolicy({ seed });
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  const message = errorMessage(error);
  // Node says ERR_MODULE_NOT_FOUND; vite-node (tests) words it as a failed load of the file.
  return message.includes('procedural-policy') && (code === 'ERR_MODULE_NOT_FOUND' || /cannot find|failed to load|does not exist/i.test(message));
}

const scriptFileSchema = z.array(
  z.union([
    z.object({ text: z.string() }).strict(),
    z
      .object({
        content: z.string().optional(),
        toolCall: z.object({ name: z.string().min(1), arguments: z.unknown(), id: z.string().optional() }).strict().optional(),
        formatError: z.string().optional(),
      })
      .strict(),
  ]),
);

async function createScriptedPolicy(options: CreatePolicyOptions): Promise<Policy> {
  const { ScriptedPolicy } = await import('./scripted-policy.js');
  if (options.scriptedSteps) return new ScriptedPolicy(options.scriptedSteps);
  if (options.policyScript === undefined) throw new EngineError('usage', '--policy scripted needs --policy-script <file> (a JSON array of turns)');
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(options.policyScript, 'utf8'));
  } catch (error) {
    throw new EngineError('usage', `--policy-script ${options.policyScript}: ${errorMessage(error)}`);
  }
  const script = scriptFileSchema.safeParse(parsed);
  if (!script.success) throw new EngineError('usage', `--policy-script ${options.policyScript}: ${z.prettifyError(script.error)}`);
  return new ScriptedPolicy(script.data);
}
