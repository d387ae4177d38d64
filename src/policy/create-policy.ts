import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ScriptedStep } from '../testing/scripted-policy.js';
import { EngineError, errorMessage } from '../util/engine-error.js';
import type { Env } from './endpoint.js';
import { OpenAIPolicy } from './openai-policy.js';
import type { Policy } from './policy.js';
import type { SamplerLogprobs } from './sampling-settings.js';
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
}

export interface CreatePolicyOptions extends PolicyFlags {
  env?: Env;
  /** `scripted` from code: the script itself (wins over `policyScript`). */
  scriptedSteps?: ScriptedStep[];
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
      return new OpenAIPolicy(http);
    case 'tokens':
      return new TokensPolicy({ ...http, topK: options.topK, samplerLogprobs: options.samplerLogprobs });
    case 'procedural':
      return createProceduralPolicy(options.seed);
    case 'scripted':
      return createScriptedPolicy(options);
  }
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
  const { ScriptedPolicy } = await import('../testing/scripted-policy.js');
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
