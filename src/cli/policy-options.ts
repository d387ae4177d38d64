import { Option, type Command } from 'commander';
import { POLICY_KINDS } from '../policy/create-policy.js';
import { TOOL_PROTOCOL_CHOICES } from '../policy/preflight/server-facts.js';
import { samplerLogprobsSchema } from '../policy/sampling-settings.js';
import { TOOL_PARSER_NAMES } from '../policy/text-protocol/tool-parsers/tool-parsers.js';
import { firstPromptTokens } from '../roles/first-prompt-tokens.js';
import { EngineError } from '../util/engine-error.js';
import { positiveInt } from './common-options.js';

/**
 * Adds the policy flags (`--policy`, `--base-url`, `--model`, `--api-key`, `--temperature`,
 * `--top-p`, `--top-k`, `--sampler-logprobs`, `--max-tokens`, `--seed`, `--tool-protocol`, `--tool-parser`, `--max-context`)
 * to a command. Commander's parsed options are a
 * `PolicyFlags` object as they are: pass them to `createPolicy`.
 */
export function addPolicyOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--policy <kind>',
        'who plays the roles: openai (chat completions with tool calls), tokens (exact token ids, for RL), ' +
          'procedural (model-free), scripted (tests; with --policy-script). Default: openai when an endpoint is configured, else procedural',
      ).choices(POLICY_KINDS),
    )
    .option('--base-url <url>', 'OpenAI-compatible server, with or without /v1 (default: $OPENAI_BASE_URL)')
    .option('--model <name>', 'served model name (default: the first model the server lists)')
    .option('--api-key <key>', 'bearer token for the server (default: $OPENAI_API_KEY)')
    .option('--temperature <t>', 'sampling temperature, ≥ 0 (default: the server\'s; tokens: 1)', boundedNumber('--temperature', 0, Infinity))
    .option('--top-p <p>', 'nucleus sampling mass, in (0, 1] (default: the server\'s; tokens: 1)', boundedNumber('--top-p', Number.MIN_VALUE, 1))
    .option('--top-k <k>', 'tokens: top-k, a positive integer (default: none, sent as -1)', positiveInt('--top-k'))
    .addOption(
      new Option(
        '--sampler-logprobs <mode>',
        'tokens: what the server\'s log-probs are. raw (default): the model\'s own distribution, so only temperature 1, top-p 1, no top-k; ' +
          'processed: those of the processed distribution (vLLM --logprobs-mode processed_logprobs), which allows other settings (the trainer corrects with TIS)',
      ).choices(samplerLogprobsSchema.options),
    )
    .option('--max-tokens <n>', 'completion tokens per assistant turn', positiveInt('--max-tokens'))
    .option('--seed <n>', 'sampling seed (also seeds the procedural policy)', integer('--seed'))
    .addOption(
      new Option('--tool-protocol <mode>', "how tool calls travel with --policy openai: native tool calls, ssr's text protocol, or auto (native when the server takes them; default)").choices(
        TOOL_PROTOCOL_CHOICES,
      ),
    )
    .addOption(
      new Option('--tool-parser <format>', 'the format the model writes tool calls in, when they come back as text (tokens mode; openai replies without native calls): cwm (ours, also reads hermes; default), hermes (Qwen), qwen3_coder, llama3_json, mistral').choices(
        TOOL_PARSER_NAMES,
      ),
    )
    .option('--max-context <n>', "the model's context in tokens, when the server does not report it (the smaller wins when it does)", positiveInt('--max-context'))
    .addOption(new Option('--policy-script <file>', 'JSON array of scripted turns for --policy scripted').hideHelp())
    // The preflight refuses a model whose context cannot hold one prompt: tell it how long one is.
    .hook('preAction', (_command, action) => void action.setOptionValue('promptTokens', promptTokensOrUndefined()));
}

/** Without readable prompt templates the episode itself will say so; the preflight just skips that check. */
function promptTokensOrUndefined(): number | undefined {
  try {
    return firstPromptTokens();
  } catch {
    return undefined;
  }
}

function boundedNumber(flag: string, min: number, max: number): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed) || parsed < min || parsed > max) {
      const range = max === Infinity ? `≥ ${min}` : `in (0, ${max}]`;
      throw new EngineError('usage', `${flag}: expected a number ${range}, got "${value}"`);
    }
    return parsed;
  };
}

function integer(flag: string): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isSafeInteger(parsed)) throw new EngineError('usage', `${flag}: expected an integer, got "${value}"`);
    return parsed;
  };
}
