import { exitEarnsReward } from '../agent/agent-exit.js';
import { buildTrainingSample } from '../rl/build-sample.js';
import { injectorGroupId, solverGroupId } from '../rl/group-id.js';
import type { TrainingSample } from '../rl/training-sample.js';
import { trainsRole, type SelfplaySettings } from './selfplay-settings.js';
import type { EpisodeEvidence } from './step-evidence.js';

/**
 * The RL samples of a step's episodes (advantage 0 until grouped): per rewarded Injector
 * trajectory one `injector` sample, grouped by (repo, commit, strategy) — the rollouts of one
 * prompt; per Solver attempt one `solver` sample, grouped by (bug, order) — the attempts on one
 * bug. A discarded attempt's trajectory is kept masked (no reward); discarded episodes give none.
 * Only the roles the run trains are emitted (the inject-only / repair-only ablations). Limit hits
 * stay in the loss unless `limitHits` is `mask`. An anchor episode's attempts are a group like any
 * bug's, marked `anchor: true`.
 */
export function buildStepSamples(evidence: readonly EpisodeEvidence[], settings: Pick<SelfplaySettings, 'trainRoles' | 'limitHits'>): TrainingSample[] {
  const samples: TrainingSample[] = [];
  const maskLimitHits = settings.limitHits === 'mask';
  for (const { record, commit, injector, attempts } of evidence) {
    if (record.status !== 'completed') continue;
    if (trainsRole(settings, 'injector') && record.order === 1 && record.rewards.injector !== null && injector) {
      samples.push(
        buildTrainingSample({
          trajectory: injector, role: 'injector', groupId: injectorGroupId(record.repo, commit, record.strategy),
          episodeId: record.id, bugId: record.bugId, reward: record.rewards.injector, maskLimitHits,
        }),
      );
    }
    if (!trainsRole(settings, 'solver') || record.bugId === null) continue;
    for (const { attempt, trajectory } of attempts) {
      if (!trajectory) continue;
      const ended = trajectory.exit?.exitStatus;
      // Graded attempts earn their ±1; a discarded one (a grading sandbox failed after a scorable
      // ending, or the agent hit the infrastructure) trains nothing.
      const exitStatus = attempt.status === 'discarded' && (ended === undefined || exitEarnsReward(ended)) ? 'infrastructure-error' : undefined;
      samples.push(
        buildTrainingSample({
          trajectory, role: 'solver', groupId: solverGroupId(record.bugId, record.order), episodeId: record.id, bugId: record.bugId,
          reward: attempt.status === 'discarded' ? null : attempt.reward, exitStatus, id: `solver:${attempt.id}`, maskLimitHits,
          anchor: record.anchor === true,
        }),
      );
    }
  }
  return samples;
}
