import { Option, type Command } from 'commander';
import { POLICY_KINDS } from '../policy/create-policy.js';
import { samplerLogprobsSchema } from '../policy/sampling-settings.js';
import { EngineError } from '../util/engine-error.js';
import { positiveInt } from './common-options.js';

/**
 * Adds the policy flags (`--policy`, `--base-url`, `--model`, `--api-key`, `--temperature`,
 * `--top-p`, `--top-k`, `--sampler-logprobs`, `--max-tokens`, `--seed`) to a command. Commander's parsed options are a
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
    .addOption(new Option('--policy-script <file>', 'JSON array of scripted turns for --policy scripted').hideHelp());
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
