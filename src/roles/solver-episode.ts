import { agentLimitsSchema, type AgentLimits } from '../agent/agent-limits.js';
import type { AgentExit } from '../agent/agent-exit.js';
import type { LeakFlag } from '../agent/leak-flag.js';
import { scanLeaks } from '../agent/scan-leaks.js';
import type { TrajectoryRecord, TrajectoryStep } from '../agent/trajectory-record.js';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { TestRunner } from '../config/repos-schema.js';
import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { solverPrompts } from './role-prompts.js';
import { prepareSolverSandbox } from './solver-sandbox.js';
import { runRoleEpisode, type RoleRunOptions } from './run-role-episode.js';

export interface SolverEpisodeOptions extends RoleRunOptions {
  template: SandboxTemplate;
  provider: SandboxProvider;
  /** A validated artifact. */
  artifact: BugArtifact;
  /** A failed Solver's pred_patch.diff, for a higher-order bug (method §6). */
  priorPatch?: string;
  /** Missing fields take the defaults of method §8. */
  limits?: Partial<AgentLimits>;
  /** The repo's runner, which a JS repo's prompt names (default pytest: the prompt names none). */
  testRunner?: TestRunner;
}

export interface SolverEpisode {
  exit: AgentExit;
  /** The last submitted diff (pred_patch.diff), or null when nothing was submitted. */
  patch: string | null;
  /** What the trajectory reached for that a Solver must not (see scanLeaks), in turn order. */
  leaks: LeakFlag[];
}

/**
 * One Solver attempt (method §4): the isolated buggy sandbox (see prepareSolverSandbox), the fixed
 * prompt around the reversed test_weaken.diff, the Solver's tools, the agent loop. Grading is a
 * separate step (gradeSolution) on a fresh sandbox. Throws only for infrastructure (EngineError).
 */
export async function runSolverEpisode(options: SolverEpisodeOptions): Promise<SolverEpisode> {
  const limits = agentLimitsSchema.parse(options.limits ?? {});
  const prompts = solverPrompts(options.artifact, limits, options.testRunner);
  // Only the calls are kept (a tokens-mode step carries its whole prompt's ids).
  const calls: Array<Pick<TrajectoryStep, 'turn' | 'toolCall'>> = [];
  const observer = { write: async (record: TrajectoryRecord) => void (record.type === 'step' && calls.push({ turn: record.turn, toolCall: record.toolCall })) };
  const exit = await runRoleEpisode('solver', () => prepareSolverSandbox(options), prompts, limits, { ...options, observer });
  return { exit, patch: exit.submission?.type === 'solver' ? exit.submission.patch : null, leaks: scanLeaks(calls) };
}
