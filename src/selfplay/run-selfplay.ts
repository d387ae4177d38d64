import { rm } from 'node:fs/promises';
import { readJsonl } from '../corpus/jsonl-file.js';
import { RunStore } from '../corpus/run-store.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import type { Policy } from '../policy/policy.js';
import { progressDisplay } from '../util/progress-display.js';
import { SampleWriter } from '../rl/sample-writer.js';
import { EngineFleet } from '../sandbox/engines/engine-fleet.js';
import type { EngineAddress } from '../sandbox/engines/engine-address.js';
import { createProvider, prepareFleetTemplate, prepareTemplate } from '../sandbox/sandbox-factory.js';
import { AheadProvider } from '../sandbox/pool/ahead-provider.js';
import { releaseProvider } from '../sandbox/pool/release-provider.js';
import type { SandboxBackend, SandboxProvider } from '../sandbox/sandbox.js';
import { checkStartingSampler, publishWeights } from '../training/publish-weights.js';
import { BaselineCache } from '../validator/baseline-cache.js';
import { EngineHealth, type EngineHealthOptions } from './engine-health.js';
import { heldOutCurve, jsonSummary, type SelfplayJsonSummary } from './json-summary.js';
import { createLanes } from './lanes.js';
import { loadCorpusBugs } from './load-corpus-bugs.js';
import { HeldOutEval, type HeldOutPlan } from './held-out-eval.js';
import { RunPolicy } from './run-policy.js';
import { connectTrainer } from './connect-trainer.js';
import { configuredTestTimeout, type RunRepo, type SelfplayContext } from './selfplay-context.js';
import { gateRepos } from './golden-gate/gate-repos.js';
import { oneUserRefusal } from './golden-gate/one-user-policy.js';
import { EngineError } from '../util/engine-error.js';
import { probeHistories } from './probe-histories.js';
import { SelfplayProgress } from './selfplay-progress.js';
import { resumeKey, type LaneSizes, type SelfplaySettings } from './selfplay-settings.js';
import { stepMetricsSchema, type StepMetrics } from './step-metrics.js';
import type { Checkpoint } from '../training/training-journal.js';
import { runSteps } from './step-loop.js';
import { observeRun, type RunObservers } from './run-observers.js';
import type { LogTarget } from '../report/step-log/step-log.js';
import type { ServerIdentity } from '../policy/preflight/server-identity.js';
import { prepareAnchorTemplates, type AnchorRun } from './anchoring/anchor-run.js';
import type { AnchorBugs } from './anchoring/anchor-bug.js';
import { anchorBugIds } from './anchoring/anchor-counts.js';

export interface SelfplayRunInput {
  /** The run.json command: `selfplay` or `corpus`. */
  command: string;
  repos: readonly ResolvedRepo[];
  policy: Policy;
  /** What identifies the policy in run.json (a resume must use the same). */
  policyKey: Record<string, unknown>;
  backend: SandboxBackend;
  /** `--docker-host` (repeatable): the Docker engines episodes are placed on (absent or empty: DOCKER_HOST's one). */
  engines?: readonly EngineAddress[];
  /** `--slots-per-host N`: episodes per engine at once (default: from its CPUs and memory). */
  slotsPerHost?: number;
  /** With `engines`: raise the episode, solver and sandbox lanes to the engines' slots in all (no concurrency flag was given). */
  scaleLanes?: boolean;
  /** `--warm N`: sandboxes per repo started ahead of demand (absent: none). */
  warm?: number;
  settings: SelfplaySettings;
  steps: number;
  out: string;
  stderr?: NodeJS.WriteStream;
  /** Overrides of the engine health check (tests). */
  health?: Partial<EngineHealthOptions>;
  /** `ssr selfplay --resume`: the trainer was restarted from the run's last checkpoint; continue from it. */
  resume?: boolean;
  /**
   * Called on `resume` once the trainer is checked to be at the checkpoint, before anything is
   * sampled: the seam where a sampler separate from the trainer is made to load the checkpoint's
   * weights (it still holds the newer, lost ones). Throwing stops the run.
   */
  onResume?: (checkpoint: Checkpoint) => Promise<void>;
  /** `--eval-set`: the held-out set evaluated after due steps (never trained on). */
  heldOut?: HeldOutPlan;
  /** `--log-to`: per-step scalars to TensorBoard / W&B (default none). */
  logTo?: readonly LogTarget[];
  /** Every setting the command resolved, for run.json's provenance (default: `settings`). */
  resolvedSettings?: Record<string, unknown>;
  /** The model server from the preflight (null: model-free policy). */
  server?: ServerIdentity | null;
  /** heartbeat.json's period (tests). */
  heartbeatMs?: number;
  /** With `settings.anchor`: its bugs, loaded and checked by the caller (anchoring/load-anchor-set.ts) before any episode. */
  anchorBugs?: AnchorBugs | null;
}

export interface SelfplayRunResult {
  /** `stopped`: the engine went away; a re-run of the same command continues. */
  status: 'completed' | 'stopped';
  reason: string | null;
  summary: SelfplayJsonSummary;
  /** Every step's metrics line in the run dir (earlier runs' included). */
  metrics: StepMetrics[];
}

async function prepareRepos(repos: readonly ResolvedRepo[], backend: SandboxBackend, stderr: NodeJS.WriteStream, fleet: EngineFleet | null): Promise<Map<string, RunRepo>> {
  const display = progressDisplay(stderr);
  try {
    const prepared = new Map<string, RunRepo>();
    for (const repo of repos) {
      const template = fleet ? await prepareFleetTemplate(repo, fleet, display.sink) : await prepareTemplate(repo, backend, display.sink);
      prepared.set(repo.id, { repo, template });
    }
    return prepared;
  } finally {
    display.stop();
  }
}

/** Lanes no narrower than the fleet's slots in all, so every engine can be kept busy. */
function scaledLanes(lanes: LaneSizes, fleet: EngineFleet): LaneSizes {
  const slots = fleet.engines.reduce((sum, engine) => sum + engine.slots, 0);
  return { ...lanes, episodes: Math.max(lanes.episodes, slots), solver: Math.max(lanes.solver, slots), sandbox: Math.max(lanes.sandbox, slots) };
}

/**
 * A self-play run into a run dir (resumable): steps 1..`steps` (see runSteps: sampling overlaps
 * the previous steps' training); steps finished by an earlier run are skipped. With a trainer the
 * policy starts at the trainer's version, once checked against the run's history (connectTrainer);
 * a separate sampler is first given the trainer's weights (also after a `--resume`).
 * Returns when every step is done or the engine went away.
 */
export async function runSelfplay(input: SelfplayRunInput): Promise<SelfplayRunResult> {
  const { settings } = input;
  const stderr = input.stderr ?? process.stderr;
  const repoIds = input.repos.map((repo) => repo.id);
  const corpus = settings.corpusDir === null ? null : await loadCorpusBugs(settings.corpusDir, input.out, input.repos);
  const anchorBugs = input.anchorBugs ?? null;
  if ((settings.anchor === null) !== (anchorBugs === null)) throw new Error('settings.anchor and anchorBugs go together (the caller loads the anchor set)');
  const log = (line: string): void => void stderr.write(`${input.command}: ${line}\n`);
  const oneUser = { command: input.command, backend: input.backend, allowed: settings.allowOneUserGrading };
  const refused = oneUserRefusal(oneUser);
  if (refused !== null) throw new EngineError('config-invalid', refused);
  // Every engine is probed (and a bad one refused, named) before anything is built or run.
  const fleet = input.engines && input.engines.length > 0 ? await EngineFleet.connect(input.engines, { slotsPerHost: input.slotsPerHost, warm: input.warm, log }) : null;
  if (fleet) log(`engines: ${fleet.engines.map((engine) => `${engine.name} (${engine.slots} slots)`).join(', ')}`);
  let prepared: Map<string, RunRepo>;
  let anchors: AnchorRun | null = null;
  try {
    prepared = await prepareRepos(input.repos, input.backend, stderr, fleet);
    if (anchorBugs !== null && settings.anchor !== null) {
      const templates = await prepareAnchorTemplates(anchorBugs, prepared, async (repo) => (await prepareRepos([repo], input.backend, stderr, fleet)).get(repo.id)!.template);
      anchors = { bugs: anchorBugs, ratio: settings.anchor.ratio, templates };
      log(`anchoring: ${templates.size} real bug(s) from ${settings.anchor.set}, ${settings.anchor.ratio} of each step's order-1 episodes`);
    }
  } catch (error) {
    await fleet?.dispose();
    throw error;
  }
  const config = resumeKey(settings, { repos: input.repos.map((repo) => ({ id: repo.id, commit: repo.commit })), policy: input.policyKey });
  const store = await RunStore.open(input.out, { command: input.command, config });
  let provider: SandboxProvider | undefined;
  let observers: RunObservers | undefined;
  let ended: 'completed' | 'stopped' | 'failed' = 'failed';
  try {
    // With a fleet, the run's own sandboxes (golden gate, history probe) come from its first engine.
    // Validation's queued runs find their sandboxes started while the runs before them hold the sandbox lane (AheadProvider).
    provider = fleet ? fleet.engines[0]!.provider : new AheadProvider(createProvider(input.backend, input.warm), settings.lanes.sandbox);
    // On --docker-host engines the evaluation's sandboxes are the first engine's, as the golden gate's, and its images are made there as the run's are.
    const onEngines = fleet ? { prepare: (repo: ResolvedRepo) => prepareFleetTemplate(repo, fleet, (event) => event.fraction === undefined && log(`held-out eval: ${event.stage}: ${event.message}`)) } : {};
    const heldOut = input.heldOut ? new HeldOutEval(input.heldOut, { out: input.out, backend: input.backend, steps: input.steps, log, ...onEngines }) : undefined;
    heldOut?.checkEarlier((await readJsonl(store.paths.metrics, stepMetricsSchema)).records);
    // Before the golden gate: a missing log-sink package must not wait for two clean suite runs.
    observers = await observeRun({
      store, steps: input.steps, repos: prepared, settings: input.resolvedSettings ?? settings, server: input.server ?? null, logTo: input.logTo ?? [], log, heartbeatMs: input.heartbeatMs,
    });
    const gated = !settings.goldenGate
      ? prepared
      : await gateRepos({
          repos: prepared, provider, file: store.paths.goldenGate, limitOf: (run) => configuredTestTimeout(settings, run.repo), log,
        });
    const refusedAfterGate = oneUserRefusal({ ...oneUser, gates: [...gated.values()].flatMap((run) => (run.gate ? [run.gate] : [])) });
    if (refusedAfterGate !== null) {
      // Nothing ran: a run.json this start wrote without the flag would refuse the re-run with it that the message asks for.
      if (!store.resumed) await rm(store.paths.runConfig, { force: true });
      throw new EngineError('config-invalid', refusedAfterGate);
    }
    // Only a mix draws strategies; a strategy asked for by name is run as asked.
    const repos = settings.strategy === 'mixed' && corpus === null ? await probeHistories(gated, provider, log) : gated;
    const lanes = createLanes(fleet && input.scaleLanes ? scaledLanes(settings.lanes, fleet) : settings.lanes);
    const policy = new RunPolicy(input.policy, lanes.policy);
    let firstUndoneStep = 1;
    while (store.hasMetrics(firstUndoneStep)) firstUndoneStep++;
    const trainer = settings.trainerUrl === null
      ? null
      : await connectTrainer({ url: settings.trainerUrl, store, resume: input.resume ?? false, firstUndoneStep, ...(input.onResume ? { onResume: input.onResume } : {}) });
    if (trainer !== null) {
      // A separate sampler must serve the trainer's weights before the first sample: a trainer that resumed is ahead of it.
      const { samplerUrl, samplerSync, maxStaleness } = settings;
      // At version 0 there is nothing to load, but the sampler must serve the same weights as the trainer all the same.
      const route = { trainerUrl: trainer.url, samplerUrl, samplerSync, runTag: trainer.runTag, tolerance: settings.samplerCheckTolerance, maxStaleness };
      const served = trainer.version === 0 ? await checkStartingSampler(route) : await publishWeights(route, trainer.version);
      if (served !== null) policy.serve(served);
    }
    const perStep = corpus ? [...corpus.values()].filter((bugs) => bugs.length > 0).length * settings.episodesPerStep : repoIds.length * settings.episodesPerStep;
    const progress = new SelfplayProgress(stderr, { steps: input.steps, perStep, label: input.command });
    const ctx: SelfplayContext = {
      settings, store, policy, provider, repos, lanes, baselines: new BaselineCache(), ...(heldOut ? { heldOut } : {}),
      // With a fleet each episode's LeaseHealth probes its own engine; DOCKER_HOST's engine is beside the point.
      health: new EngineHealth({ backend: input.backend, ...(fleet ? { probe: async () => ({ ok: true, reason: 'engines probed per episode' }) } : {}), ...input.health }),
      fleet, progress, sampleWriter: new SampleWriter(input.out),
      stageMs: new Map(), trainer, sampling: [], anchors,
    };
    // Step 0: the starting policy, before any sample of step 1 (once: a resume reads it back).
    const atStart = await heldOut?.atStart(ctx);
    let stopped: string | null;
    try {
      stopped = await runSteps(ctx, { steps: input.steps, repos: repoIds, corpus, progress, onStepStarted: observers.onStepStarted, onStepFinished: observers.onStepFinished });
    } finally {
      progress.stop();
    }
    ended = stopped === null ? 'completed' : 'stopped';
    const metrics = (await readJsonl(store.paths.metrics, stepMetricsSchema)).records;
    return { status: stopped === null ? 'completed' : 'stopped', reason: stopped, summary: jsonSummary(store.episodes(), metrics.length, input.out, store.validBugQualities(anchorBugIds(store.episodes())), heldOutCurve(atStart ? [{ step: 0, heldOut: atStart }, ...metrics] : metrics)), metrics };
  } finally {
    await observers?.stop(ended);
    // Warm sandboxes go on every way out: done, stopped, or an error thrown through here.
    if (fleet) await releaseProvider(fleet, log);
    else if (provider) await releaseProvider(provider, log);
    await store.close();
  }
}
