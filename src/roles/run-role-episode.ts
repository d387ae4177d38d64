import type { AgentExit } from '../agent/agent-exit.js';
import type { AgentLimits } from '../agent/agent-limits.js';
import { runAgent } from '../agent/run-agent.js';
import type { AgentRole, Policy } from '../policy/policy.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { toolsForRole } from '../tools/registry.js';
import type { RolePrompts } from './role-prompts.js';
import { withTrajectory } from './with-trajectory.js';

/** What every role's episode is told about where it runs and how it is recorded. */
export interface RoleRunOptions {
  policy: Policy;
  episodeId: string;
  seed?: number;
  /** JSONL file the trajectory is written to, step by step (none when undefined). */
  trajectoryPath?: string;
  signal?: AbortSignal;
}

/**
 * The agent loop for `role` with its tools and rendered prompts, in the sandbox `acquire` makes,
 * recording the trajectory; the sandbox is disposed of before returning, whatever happened.
 */
export async function runRoleEpisode(
  role: AgentRole,
  acquire: () => Promise<Sandbox>,
  prompts: RolePrompts,
  limits: AgentLimits,
  options: RoleRunOptions,
): Promise<AgentExit> {
  return withTrajectory(options.trajectoryPath, async (trajectory) => {
    const sandbox = await acquire();
    try {
      return await runAgent({
        policy: options.policy,
        sandbox,
        role,
        ...prompts,
        tools: toolsForRole(role),
        limits,
        episodeId: options.episodeId,
        seed: options.seed,
        trajectory,
        signal: options.signal,
      });
    } finally {
      await sandbox.dispose().catch(() => undefined);
    }
  });
}
