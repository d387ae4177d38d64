import { basename } from 'node:path';
import { recordProvenance } from '../corpus/record-provenance.js';
import type { RunStore } from '../corpus/run-store.js';
import type { ServerIdentity } from '../policy/preflight/server-identity.js';
import { StepLog, type LogTarget } from '../report/step-log/step-log.js';
import { templateIdentity } from '../sandbox/template-identity.js';
import { HeartbeatWriter, type Heartbeat } from './heartbeat.js';
import type { RunRepo } from './selfplay-context.js';
import type { StepMetrics } from './step-metrics.js';

export interface ObserveInput {
  store: RunStore;
  steps: number;
  repos: ReadonlyMap<string, RunRepo>;
  /** Every setting the command resolved (defaults, flags, env), secrets left out. */
  settings: Record<string, unknown>;
  server: ServerIdentity | null;
  logTo: readonly LogTarget[];
  log: (line: string) => void;
  /** Heartbeat period (tests shorten it). */
  heartbeatMs?: number;
}

/** What watches a run from outside the step loop: run.json's provenance, heartbeat.json, `--log-to`. */
export interface RunObservers {
  onStepStarted: (step: number) => void;
  onStepFinished: (metrics: StepMetrics) => void;
  /** Final heartbeat and the log sink flushed and closed. */
  stop: (status: Exclude<Heartbeat['status'], 'running'>) => Promise<void>;
}

/**
 * Record the run's provenance in run.json, start its heartbeat and, with `--log-to`, its log sink
 * (which fails here, before any episode, when its Python package is missing).
 */
export async function observeRun(input: ObserveInput): Promise<RunObservers> {
  const { store } = input;
  const images = Object.fromEntries(await Promise.all([...input.repos].map(async ([id, run]) => [id, await templateIdentity(run.template)] as const)));
  await recordProvenance(store.paths.runConfig, { settings: input.settings, images, server: input.server });
  let step = 0;
  const heartbeat = new HeartbeatWriter(
    store.paths.heartbeat,
    input.steps,
    () => {
      let stepsDone = 0;
      for (let s = 1; s <= input.steps; s++) if (store.hasMetrics(s)) stepsDone++;
      return { step, stepsDone, episodesDone: store.episodes().filter((record) => record.status === 'completed').length };
    },
    input.heartbeatMs,
  );
  await heartbeat.beat();
  let stepLog: StepLog | null = null;
  try {
    if (input.logTo.length > 0) {
      stepLog = await StepLog.open({ targets: input.logTo, dir: store.paths.logs, runDir: store.paths.root, name: basename(store.paths.root), config: input.settings, warn: input.log });
    }
  } catch (error) {
    await heartbeat.stop('failed');
    throw error;
  }
  return {
    onStepStarted: (started) => {
      step = started;
      void heartbeat.beat();
    },
    onStepFinished: (metrics) => {
      stepLog?.log(metrics);
      void heartbeat.beat();
    },
    stop: async (status) => {
      await heartbeat.stop(status);
      await stepLog?.close();
    },
  };
}
