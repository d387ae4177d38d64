import { exitEarnsReward, type AgentExit } from '../../agent/agent-exit.js';
import type { BugArtifact } from '../../artifact/bug-artifact.js';
import { runInjectorEpisode } from '../../roles/injector-episode.js';
import { injectorStrategySchema } from '../../roles/injector-strategy.js';
import { discardFromError, discardFromExit, engineStopped, type Discard } from '../discard.js';
import { injectorRunId } from '../episode-ids.js';
import { roleLimits } from '../../roles/role-limits.js';
import { runRepo, testTimeoutOf, type SelfplayContext } from '../selfplay-context.js';
import type { PlannedEpisode } from './01-prepare.js';

/** How the Injector's rollout ended: a bug to validate, nothing usable (reward −1), or infrastructure. */
export type InjectOutcome =
  | { status: 'submitted'; artifact: BugArtifact; exit: AgentExit; durationMs: number; phasesMs: Record<string, number> }
  | { status: 'unusable'; exit: AgentExit; problem: string | null; durationMs: number; phasesMs: Record<string, number> }
  | { status: 'discarded'; discard: Discard; durationMs: number };

/**
 * Stage 2 (inject): one Injector rollout with the planned strategy in a fresh sandbox of O, its
 * trajectory written to `trajectories/<episode>-inject.jsonl`. Endings the model caused are
 * data; a sandbox or policy failure is a discard (and is reported to the engine health check).
 */
export async function injectStage(ctx: SelfplayContext, planned: PlannedEpisode): Promise<InjectOutcome> {
  const started = Date.now();
  const { repo, template } = runRepo(ctx, planned.repo);
  const id = injectorRunId(planned.id);
  const durationMs = (): number => Date.now() - started;
  let episode;
  try {
    episode = await runInjectorEpisode({
      policy: ctx.policy,
      repo,
      template,
      provider: ctx.provider,
      strategy: injectorStrategySchema.parse(planned.strategy),
      limits: roleLimits(ctx.settings.injectorLimits, testTimeoutOf(ctx, repo)),
      episodeId: id,
      seed: planned.seed,
      testTimeoutMs: testTimeoutOf(ctx, repo),
      trajectoryPath: ctx.store.trajectoryPath(id),
      signal: ctx.health.signal,
      ...(planned.realFixes ? { promptAppendix: planned.realFixes } : {}),
    });
  } catch (error) {
    const discard = discardFromError('inject', error);
    await ctx.health.reportFailure(discard.code, discard.detail);
    return { status: 'discarded', discard: ctx.health.stopped ? engineStopped(ctx.health.stopped) : discard, durationMs: durationMs() };
  }
  const { exit } = episode;
  if (!exitEarnsReward(exit.exitStatus)) {
    if (exit.exitStatus === 'cancelled' && ctx.health.stopped) return { status: 'discarded', discard: engineStopped(ctx.health.stopped), durationMs: durationMs() };
    const discard = discardFromExit('inject', exit);
    await ctx.health.reportFailure(discard.code, discard.detail);
    return { status: 'discarded', discard, durationMs: durationMs() };
  }
  ctx.health.reportSuccess();
  const { phasesMs } = episode;
  if (episode.artifact) return { status: 'submitted', artifact: episode.artifact, exit, durationMs: durationMs(), phasesMs };
  return { status: 'unusable', exit, problem: episode.submissionProblem ?? null, durationMs: durationMs(), phasesMs };
}
