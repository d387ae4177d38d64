import { agentLimitsSchema, type AgentLimits } from '../agent/agent-limits.js';
import type { AgentExit } from '../agent/agent-exit.js';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { runnerOf } from '../harness/repo-test-files.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { artifactFromSubmission } from './artifact-from-submission.js';
import type { InjectorStrategy } from './injector-strategy.js';
import { injectorPrompts } from './role-prompts.js';
import { runRoleEpisode, type RoleRunOptions } from './run-role-episode.js';
import { resolveTestTimeoutMs } from '../config/test-timeout.js';

export interface InjectorEpisodeOptions extends RoleRunOptions {
  repo: ResolvedRepo;
  template: SandboxTemplate;
  provider: SandboxProvider;
  strategy: InjectorStrategy;
  /** Missing fields take the defaults of method §8. */
  limits?: Partial<AgentLimits>;
  /** Test-script limit the prompt announces, ms (default: the repo's test_timeout_s; pass the validator's). */
  testTimeoutMs?: number;
  /** Text appended to the strategy's prompt (anchoring: real fixes shown to the history strategy). */
  promptAppendix?: string;
}

export interface InjectorEpisode {
  exit: AgentExit;
  /** The last submission as an artifact; null when nothing (usable) was submitted. */
  artifact: BugArtifact | null;
  /** Set when a submission exists but its test_files.txt is unusable (an invalid artifact). */
  submissionProblem?: string;
  /**
   * Where the rollout's wall time went, ms: `sandbox` (acquiring the sandbox of O), then the
   * policy's own phases when it times them (the procedural Injector's, see INJECTOR_PHASES).
   */
  phasesMs: Record<string, number>;
}

/**
 * One Injector rollout (method §2, §7) in a fresh sandbox of the original repo O: the strategy's
 * prompt, the Injector's tools, the agent loop. The sandbox is disposed of before returning.
 * Model failures end the episode as data (see AgentExit); only the sandbox or the trajectory
 * file failing throws (EngineError).
 */
export async function runInjectorEpisode(options: InjectorEpisodeOptions): Promise<InjectorEpisode> {
  const limits = agentLimitsSchema.parse(options.limits ?? {});
  const testTimeoutMs = resolveTestTimeoutMs(options.repo, options.testTimeoutMs);
  const base = injectorPrompts(options.strategy, { thresholds: options.repo.thresholds, testTimeoutMs, testRunner: runnerOf(options.repo) }, limits);
  const prompts = options.promptAppendix ? { ...base, userPrompt: `${base.userPrompt}\n\n${options.promptAppendix}` } : base;
  let sandboxMs = 0;
  const acquire = async (): Promise<Sandbox> => {
    const started = Date.now();
    try {
      return await options.provider.acquire(options.template);
    } finally {
      sandboxMs = Date.now() - started;
    }
  };
  const exit = await runRoleEpisode('injector', acquire, prompts, limits, options);
  const phasesMs = { sandbox: sandboxMs, ...definedTimes(options.policy.takePhaseTimes?.(options.episodeId)) };
  if (exit.submission?.type !== 'injector') return { exit, artifact: null, phasesMs };
  const collected = artifactFromSubmission(exit.submission);
  return 'problem' in collected ? { exit, artifact: null, submissionProblem: collected.problem, phasesMs } : { exit, artifact: collected.artifact, phasesMs };
}

function definedTimes(times: Partial<Record<string, number>> | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(times ?? {}).filter((entry): entry is [string, number] => entry[1] !== undefined));
}
