import type { Command } from 'commander';
import type { AgentLimits } from '../agent/agent-limits.js';
import { positiveInt } from './common-options.js';

/** The episode-limit flags as commander parses them (seconds on the command line). */
export interface AgentLimitFlags {
  maxTurns?: number;
  maxContextTokens?: number;
  maxWallTime?: number;
  commandTimeout?: number;
}

/** Adds `--max-turns`, `--max-context-tokens`, `--max-wall-time`, `--command-timeout` (method §8 limits). */
export function addAgentLimitOptions(command: Command): Command {
  return command
    .option('--max-turns <n>', 'policy turns per episode (default 128)', positiveInt('--max-turns'))
    .option('--max-context-tokens <n>', 'context tokens per episode (default 128000)', positiveInt('--max-context-tokens'))
    .option('--max-wall-time <seconds>', 'wall time of one episode (default 3600)', positiveInt('--max-wall-time'))
    .option('--command-timeout <seconds>', 'time limit of one bash command (default 120)', positiveInt('--command-timeout'));
}

/** The limits the flags set; the rest keep their defaults. */
export function agentLimitsFromFlags(flags: AgentLimitFlags): Partial<AgentLimits> {
  return {
    ...(flags.maxTurns !== undefined ? { maxTurns: flags.maxTurns } : {}),
    ...(flags.maxContextTokens !== undefined ? { maxContextTokens: flags.maxContextTokens } : {}),
    ...(flags.maxWallTime !== undefined ? { maxWallMs: flags.maxWallTime * 1000 } : {}),
    ...(flags.commandTimeout !== undefined ? { commandTimeoutMs: flags.commandTimeout * 1000 } : {}),
  };
}
