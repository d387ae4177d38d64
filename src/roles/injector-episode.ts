import { agentLimitsSchema, type AgentLimits } from '../agent/agent-limits.js';
import type { AgentExit } from '../agent/agent-exit.js';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { runnerOf } from '../harness/repo-test-files.js';
import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
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
  const exit = await runRoleEpisode('injector', () => options.provider.acquire(options.template), prompts, limits, options);
  if (exit.submission?.type !== 'injector') return { exit, artifact: null };
  const collected = artifactFromSubmission(exit.submission);
  return 'problem' in collected ? { exit, artifact: null, submissionProblem: collected.problem } : { exit, artifact: collected.artifact };
}
