import type { AgentExit } from '../agent/agent-exit.js';
import type { AgentLimits } from '../agent/agent-limits.js';
import { runAgent } from '../agent/run-agent.js';
import type { TrajectorySink } from '../agent/trajectory.js';
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
  /** Also receives every record as it is written (e.g. to scan the steps without reading the file back). */
  observer?: TrajectorySink;
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
  return withTrajectory(options.trajectoryPath, async (file) => {
    const observer = options.observer;
    const trajectory: TrajectorySink | undefined = observer === undefined ? file : {
      async write(record) {
        await file?.write(record);
        await observer.write(record);
      },
    };
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
