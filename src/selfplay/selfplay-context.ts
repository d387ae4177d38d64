import type { ResolvedRepo } from '../config/resolve-repo.js';
import type { RunStore } from '../corpus/run-store.js';
import type { SampleWriter } from '../rl/sample-writer.js';
import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import type { Interval } from '../training/overlap.js';
import type { TrainingJournal } from '../training/training-journal.js';
import type { BaselineCache } from '../validator/baseline-cache.js';
import type { EngineFleet } from '../sandbox/engines/engine-fleet.js';
import type { RunHealth } from './engine-health.js';
import type { HeldOutEval } from './held-out-eval.js';
import type { Lanes } from './lanes.js';
import type { RunPolicy } from './run-policy.js';
import type { SelfplaySettings } from './selfplay-settings.js';
import type { GoldenGate } from './golden-gate/judge-golden-gate.js';
import { historyNote, historyUsable, type RepoHistory } from '../roles/repo-history.js';
import { resolveTestTimeoutMs } from '../config/test-timeout.js';
import type { AnchorRun } from './anchoring/anchor-run.js';

/** A repo of the run with the template its sandboxes start from. */
export interface RunRepo {
  repo: ResolvedRepo;
  template: SandboxTemplate;
  /** The golden gate's verdict (quarantined tests, the limit in force); absent when the gate is off. */
  gate?: Extract<GoldenGate, { status: 'passed' }>;
  /** What the history strategy has to work with (probed when the run's strategy may plan history). */
  history?: RepoHistory;
}

/** Reports progress as episodes finish (see selfplay-progress.ts). */
export interface EpisodeProgress {
  /** An episode was planned (order 2 ones are planned as they are grown). */
  planned(count: number): void;
  /** An episode ended (recorded or discarded here, or found done: `ranHere` false). */
  finished(summary: string, ranHere?: boolean): void;
}

/** Time spent in the stages the step loop times itself, per step. */
export interface StageTimes {
  prepare: number;
  score: number;
  emit: number;
}

/** The trainer as the run sees it. */
export interface RunTrainer {
  url: string;
  journal: TrainingJournal;
  /** The trainer's version after the last train call this run made or found done. */
  version: number;
  /** Names the adapters this run has a sampler load (run-tag.ts). */
  runTag: string;
}

/** What every stage of a run shares. */
export interface SelfplayContext {
  settings: SelfplaySettings;
  store: RunStore;
  policy: RunPolicy;
  provider: SandboxProvider;
  repos: ReadonlyMap<string, RunRepo>;
  lanes: Lanes;
  baselines: BaselineCache;
  health: RunHealth;
  /** The Docker engines episodes are placed on (`--docker-host`); null: every sandbox comes from `provider`. */
  fleet: EngineFleet | null;
  progress: EpisodeProgress;
  sampleWriter: SampleWriter;
  /** `--eval-set`: evaluates the trained policy on the held-out set after due steps; absent without it. */
  heldOut?: HeldOutEval;
  /** Per step: steps overlap (one samples while another trains), so each keeps its own. */
  stageMs: Map<number, StageTimes>;
  /** Null without `--trainer`. */
  trainer: RunTrainer | null;
  /** When each step of this process sampled (its episodes ran): what training overlapped. */
  sampling: Interval[];
  /** Anchoring (`--anchor-set`); absent or null: none. */
  anchors?: AnchorRun | null;
}

/** The stage times of a step, created at 0 on first use. */
export function stageTimesOf(ctx: Pick<SelfplayContext, 'stageMs'>, step: number): StageTimes {
  let times = ctx.stageMs.get(step);
  if (!times) ctx.stageMs.set(step, (times = { prepare: 0, score: 0, emit: 0 }));
  return times;
}

/** The run repo of an id. @throws Error for an id the run does not have (a bug in the caller). */
export function runRepo(ctx: SelfplayContext, id: string): RunRepo {
  const found = ctx.repos.get(id);
  if (!found) throw new Error(`repo ${id} is not part of this run`);
  return found;
}

/** The configured test-script time limit of a repo, ms: --test-timeout, else the repo's. */
export function configuredTestTimeout(settings: Pick<SelfplaySettings, 'testTimeoutMs'>, repo: ResolvedRepo): number {
  return resolveTestTimeoutMs(repo, settings.testTimeoutMs);
}

/** The test-script time limit of a repo in this run, ms: the configured one, or what the golden gate raised it to. */
export function testTimeoutOf(ctx: SelfplayContext, repo: ResolvedRepo): number {
  return ctx.repos.get(repo.id)?.gate?.testTimeoutMs ?? configuredTestTimeout(ctx.settings, repo);
}

/** Tests of a repo the golden gate quarantined (flaky on the clean repo): no oracle set holds them. */
export function quarantineOf(ctx: SelfplayContext, repoId: string): ReadonlySet<string> {
  return new Set(ctx.repos.get(repoId)?.gate?.quarantined ?? []);
}

/** Per repo of the run without usable history, the note saying history is not planned there. */
export function noHistoryNotes(repos: ReadonlyMap<string, RunRepo>): Map<string, string> {
  const notes = new Map<string, string>();
  for (const [id, run] of repos) if (run.history && !historyUsable(run.history)) notes.set(id, historyNote(id, run.history));
  return notes;
}
