import type { AgentLimits } from '../agent/agent-limits.js';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../tools/tool.js';

/** Time a bash command gets beyond the test limit (ms), for what runs around the tests (parsing, diffs). */
export const COMMAND_MARGIN_MS = 30_000;

/**
 * A role's agent limits on a repo: a bash command may run at least as long as the repo's test
 * limit (which the golden gate derives from its clean-suite time) plus a margin, so an agent can
 * run the whole suite of a slow repo in one command. A command limit the user set is kept as set.
 */
export function roleLimits(limits: Partial<AgentLimits>, testTimeoutMs: number): Partial<AgentLimits> {
  if (limits.commandTimeoutMs !== undefined) return limits;
  return { ...limits, commandTimeoutMs: Math.max(DEFAULT_COMMAND_TIMEOUT_MS, testTimeoutMs + COMMAND_MARGIN_MS) };
}
