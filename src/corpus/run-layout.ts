import { join } from 'node:path';
import { EngineError } from '../util/engine-error.js';

/**
 * Names inside a run dir (`ssr selfplay --out`, `ssr corpus --out`): a contract other tools parse.
 *
 *     run.json                      the command and its settings (a resume must match)
 *     bugs/<bug-id>/                the five artifact files + metadata.json + validation.json
 *                                   (`"valid": bool`) + solves.json once solved
 *     episodes.jsonl                one {@link EpisodeRecord} per line
 *     trajectories/<id>.jsonl       one agent trajectory (header, steps, exit; `readTrajectory` reads
 *                                   it: format 2 stores each turn's added prompt token ids only)
 *     samples/v<N>.jsonl            RL training samples trained at policy version N (the train
 *                                   call's expected_version; a sample's own version may be up to
 *                                   --max-staleness older)
 *     metrics.jsonl                 one line per step
 *     golden-gate.json              per repo: the two clean runs' verdict (quarantined flaky tests,
 *                                   the test time limit in force, or why the repo was refused)
 *     training.jsonl                the trainer's history as the run saw it: each train call
 *                                   (before it is sent), each checkpoint written, each resume
 *     heartbeat.json                liveness of the process writing the run (time, pid, step,
 *                                   episodes done), rewritten every 30 s (selfplay/heartbeat.ts)
 *     logs/                         `--log-to`: tensorboard/ event files, wandb/ offline runs
 *     eval/step-<N>/                `--eval-set`: the held-out evaluation after step N (an `ssr eval`
 *                                   dir); eval/overlaps.json: train/eval pairs (held-out-eval.ts)
 *
 * Names starting with a dot are in-progress writes (and `.lock`, the writer's pid): readers skip them. A JSONL line counts once
 * its newline is written (a torn last line is ignored). In episodes.jsonl the last line of an id
 * wins, and only a `completed` line can follow a `discarded` one (a retried episode).
 */
export const RUN_LAYOUT = {
  runConfig: 'run.json',
  bugs: 'bugs',
  episodes: 'episodes.jsonl',
  trajectories: 'trajectories',
  samples: 'samples',
  metrics: 'metrics.jsonl',
  goldenGate: 'golden-gate.json',
  training: 'training.jsonl',
  heartbeat: 'heartbeat.json',
  logs: 'logs',
  /** Inside a bug dir. */
  validation: 'validation.json',
  /** Inside a bug dir. */
  solves: 'solves.json',
} as const;

const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.:@+-]*$/;

/**
 * An id used as a file name must stay one plain path segment.
 * @throws EngineError `internal` otherwise (ids are made by the engine, not typed by users).
 */
export function assertSafeId(id: string, what: string): string {
  if (!SAFE_ID.test(id) || id.includes('..') || id.length > 200) {
    throw new EngineError('internal', `${what} id ${JSON.stringify(id)} cannot be a file name (letters, digits and _.:@+- only, not starting with a dot)`);
  }
  return id;
}

/** Absolute paths of one run dir's parts. */
export function runPaths(root: string) {
  return {
    root,
    runConfig: join(root, RUN_LAYOUT.runConfig),
    bugs: join(root, RUN_LAYOUT.bugs),
    bugDir: (bugId: string) => join(root, RUN_LAYOUT.bugs, assertSafeId(bugId, 'bug')),
    episodes: join(root, RUN_LAYOUT.episodes),
    trajectories: join(root, RUN_LAYOUT.trajectories),
    trajectory: (id: string) => join(root, RUN_LAYOUT.trajectories, `${assertSafeId(id, 'trajectory')}.jsonl`),
    samples: join(root, RUN_LAYOUT.samples),
    samplesFile: (version: number) => join(root, RUN_LAYOUT.samples, `v${checkVersion(version)}.jsonl`),
    metrics: join(root, RUN_LAYOUT.metrics),
    goldenGate: join(root, RUN_LAYOUT.goldenGate),
    training: join(root, RUN_LAYOUT.training),
    heartbeat: join(root, RUN_LAYOUT.heartbeat),
    logs: join(root, RUN_LAYOUT.logs),
  };
}
export type RunPaths = ReturnType<typeof runPaths>;

function checkVersion(version: number): number {
  if (!Number.isInteger(version) || version < 0) throw new EngineError('internal', `policy version must be a non-negative integer, got ${version}`);
  return version;
}
