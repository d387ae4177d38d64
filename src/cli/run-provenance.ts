import { Option, type Command } from 'commander';
import { createPolicy, type PolicyFlags } from '../policy/create-policy.js';
import type { Policy } from '../policy/policy.js';
import { serverIdentity, type ServerIdentity } from '../policy/preflight/server-identity.js';
import { LOG_TARGETS, type LogTarget } from '../report/step-log/step-log.js';
import { EngineError } from '../util/engine-error.js';

/** The environment variables that change what a run does (recorded; secrets only as set / unset). */
const RECORDED_ENV = ['OPENAI_BASE_URL', 'SSR_HOME', 'SSR_PYTHON', 'WANDB_MODE', 'WANDB_PROJECT'] as const;

/** `--log-to tensorboard|wandb`, repeatable. */
export function addLogToOption(command: Command): Command {
  const parse = (value: string, previous: LogTarget[] = []): LogTarget[] => {
    if (!(LOG_TARGETS as readonly string[]).includes(value)) throw new EngineError('usage', `--log-to: expected one of ${LOG_TARGETS.join(', ')}, got "${value}"`);
    return [...previous, value as LogTarget];
  };
  return command.addOption(
    new Option('--log-to <target>', `also log every step's scalars to ${LOG_TARGETS.join(' or ')} under <out>/logs/ (repeatable; a Python with tensorboardX / wandb: $SSR_PYTHON, else python3; W&B offline unless WANDB_MODE is set)`).argParser(parse),
  );
}

/**
 * Every setting a run command resolved, for run.json's provenance: its flags after defaults (the
 * API key as set / unset only), the parsed settings, and the environment that steers it.
 */
export function resolvedRunSettings(flags: object, resolved: Record<string, unknown>): Record<string, unknown> {
  const { apiKey, ...rest } = flags as Record<string, unknown>;
  const env = Object.fromEntries(RECORDED_ENV.map((name) => [name, process.env[name] ?? null]));
  const keySet = apiKey !== undefined || (process.env.OPENAI_API_KEY ?? '') !== '';
  return { flags: rest, apiKey: keySet ? 'set' : 'unset', env, ...resolved };
}

/** The command's policy, and its server's identity when it has one (from the preflight). */
export async function createRunPolicy(flags: PolicyFlags): Promise<{ policy: Policy; server: ServerIdentity | null }> {
  let server: ServerIdentity | null = null;
  const policy = await createPolicy({ ...flags, onServerFacts: (facts) => void (server = serverIdentity(facts)) });
  return { policy, server };
}
