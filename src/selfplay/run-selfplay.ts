import { readJsonl } from '../corpus/jsonl-file.js';
import { RunStore } from '../corpus/run-store.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import type { Policy } from '../policy/policy.js';
import { progressDisplay } from '../report/progress-display.js';
import { SampleWriter } from '../rl/sample-writer.js';
import { createProvider, prepareTemplate } from '../sandbox/sandbox-factory.js';
import { releaseProvider } from '../sandbox/pool/release-provider.js';
import type { SandboxBackend, SandboxProvider } from '../sandbox/sandbox.js';
import { publishWeights } from '../training/publish-weights.js';
import { BaselineCache } from '../validator/baseline-cache.js';
import { EngineHealth, type EngineHealthOptions } from './engine-health.js';
import { jsonSummary, type SelfplayJsonSummary } from './json-summary.js';
import { createLanes } from './lanes.js';
import { loadCorpusBugs } from './load-corpus-bugs.js';
import { RunPolicy } from './run-policy.js';
import { connectTrainer } from './connect-trainer.js';
import { configuredTestTimeout, type RunRepo, type SelfplayContext } from './selfplay-context.js';
import { gateRepos } from './golden-gate/gate-repos.js';
import { probeHistories } from './probe-histories.js';
import { SelfplayProgress } from './selfplay-progress.js';
import { resumeKey, type SelfplaySettings } from './selfplay-settings.js';
import { stepMetricsSchema, type StepMetrics } from './step-metrics.js';
import type { Checkpoint } from '../training/training-journal.js';
import { runSteps } from './step-loop.js';

export interface SelfplayRunInput {
  /** The run.json command: `selfplay` or `corpus`. */
  command: string;
  repos: readonly ResolvedRepo[];
  policy: Policy;
  /** What identifies the policy in run.json (a resume must use the same). */
  policyKey: Record<string, unknown>;
  backend: SandboxBackend;
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
}

export interface SelfplayRunResult {
  /** `stopped`: the engine went away; a re-run of the same command continues. */
  status: 'completed' | 'stopped';
  reason: string | null;
  summary: SelfplayJsonSummary;
  /** Every step's metrics line in the run dir (earlier runs' included). */
  metrics: StepMetrics[];
}

async function prepareRepos(repos: readonly ResolvedRepo[], backend: SandboxBackend, stderr: NodeJS.WriteStream): Promise<Map<string, RunRepo>> {
  const display = progressDisplay(stderr);
  try {
    const prepared = new Map<string, RunRepo>();
    for (const repo of repos) prepared.set(repo.id, { repo, template: await prepareTemplate(repo, backend, display.sink) });
    return prepared;
  } finally {
    display.stop();
  }
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
  const prepared = await prepareRepos(input.repos, input.backend, stderr);
  const config = resumeKey(settings, { repos: input.repos.map((repo) => ({ id: repo.id, commit: repo.commit })), policy: input.policyKey });
  const store = await RunStore.open(input.out, { command: input.command, config });
  let provider: SandboxProvider | undefined;
  try {
    provider = createProvider(input.backend, input.warm);
    const log = (line: string): void => void stderr.write(`${input.command}: ${line}\n`);
    const gated = !settings.goldenGate
      ? prepared
      : await gateRepos({
          repos: prepared, provider, file: store.paths.goldenGate, limitOf: (run) => configuredTestTimeout(settings, run.repo), log,
        });
    // Only a mix draws strategies; a strategy asked for by name is run as asked.
    const repos = settings.strategy === 'mixed' && corpus === null ? await probeHistories(gated, provider, log) : gated;
    const lanes = createLanes(settings.lanes);
    const policy = new RunPolicy(input.policy, lanes.policy);
    let firstUndoneStep = 1;
    while (store.hasMetrics(firstUndoneStep)) firstUndoneStep++;
    const trainer = settings.trainerUrl === null
      ? null
      : await connectTrainer({ url: settings.trainerUrl, store, resume: input.resume ?? false, firstUndoneStep, ...(input.onResume ? { onResume: input.onResume } : {}) });
    if (trainer !== null) {
      // A separate sampler must serve the trainer's weights before the first sample: a trainer that resumed is ahead of it.
      const { samplerUrl, samplerSync } = settings;
      const served = trainer.version === 0 ? { version: 0 } : await publishWeights({ trainerUrl: trainer.url, samplerUrl, samplerSync }, trainer.version);
      if (served !== null) policy.serve(served);
    }
    const perStep = corpus ? [...corpus.values()].filter((bugs) => bugs.length > 0).length * settings.episodesPerStep : repoIds.length * settings.episodesPerStep;
    const progress = new SelfplayProgress(stderr, { steps: input.steps, perStep, label: input.command });
    const ctx: SelfplayContext = {
      settings, store, policy, provider, repos, lanes, baselines: new BaselineCache(),
      health: new EngineHealth({ backend: input.backend, ...input.health }), progress, sampleWriter: new SampleWriter(input.out),
      stageMs: new Map(), trainer, sampling: [],
    };
    let stopped: string | null;
    try {
      stopped = await runSteps(ctx, { steps: input.steps, repos: repoIds, corpus, progress });
    } finally {
      progress.stop();
    }
    const metrics = (await readJsonl(store.paths.metrics, stepMetricsSchema)).records;
    return { status: stopped === null ? 'completed' : 'stopped', reason: stopped, summary: jsonSummary(store.episodes(), metrics.length, input.out, store.validBugQualities()), metrics };
  } finally {
    // Warm sandboxes go on every way out: done, stopped, or an error thrown through here.
    if (provider) await releaseProvider(provider, (line) => stderr.write(`${input.command}: ${line}\n`));
    await store.close();
  }
}
