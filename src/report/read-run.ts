import { stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { HELD_OUT_AT_START, heldOutMetricsSchema, type HeldOutMetrics } from '../evaluation/held-out/held-out-metrics.js';
import type { EpisodeRecord } from '../corpus/episode-record.js';
import { z } from 'zod';
import { episodeRecordSchema } from '../corpus/episode-record.js';
import { describeGoldenGate, goldenGateSchema } from '../selfplay/golden-gate/judge-golden-gate.js';
import { readJsonl } from '../corpus/jsonl-file.js';
import { readJsonFile } from '../corpus/read-json-file.js';
import { runConfigSchema, type RunConfig } from '../corpus/run-config.js';
import { RUN_LAYOUT, runPaths } from '../corpus/run-layout.js';
import { EngineError } from '../util/engine-error.js';
import type { QualityDistribution } from '../corpus/quality-distribution.js';
import { readBugQuality } from './read-bug-quality.js';
import { readBugRows, type BugRow } from './read-bug-rows.js';
import { stepMetricsSchema, type StepMetrics } from '../selfplay/step-metrics.js';

/** Everything the report shows of one run dir. */
export interface RunData {
  /** Absolute path of the run dir. */
  dir: string;
  /** Short label (the dir's name) for titles and legends. */
  name: string;
  /** run.json; null when missing. */
  config: RunConfig | null;
  /** metrics.jsonl, one entry per step, in file order. */
  steps: StepMetrics[];
  /** episodes.jsonl, the last line of each id, in first-recorded order. */
  episodes: EpisodeRecord[];
  /** The latest bugs, newest first (at most `bugLimit`). */
  bugs: BugRow[];
  /** Finished bug dirs in the run (the table may show fewer). */
  bugCount: number;
  /** Every valid bug of the run by breadth, kind and weakening (issue 14). */
  quality: QualityDistribution;
  /** Things the reader should know: torn last lines, missing optional files. */
  notes: string[];
  /** `--eval-every`: the starting policy's held-out evaluation (eval/step-0/held-out.json); null without one. */
  heldOutAtStart: HeldOutMetrics | null;
}

export interface ReadRunOptions {
  /** How many of the latest bugs to read for the table (default 50). */
  bugLimit?: number;
}

/**
 * Read a run dir written by `ssr selfplay` / `ssr corpus` for the report. A torn last line of a
 * JSONL file (a run still writing, or killed mid-append) is ignored with a note; a missing
 * optional part (run.json, episodes, bugs, metrics) is a note, not an error.
 *
 * @throws EngineError `usage` when `dir` is not a run dir (none of its parts exist);
 *   `artifact-invalid-input` naming the file (and line) of a corrupt part.
 */
export async function readRun(dir: string, options: ReadRunOptions = {}): Promise<RunData> {
  const root = resolve(dir);
  const paths = runPaths(root);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) throw new EngineError('usage', `run dir ${dir} does not exist or is not a directory`);
  const present = await Promise.all([paths.runConfig, paths.metrics, paths.episodes, paths.bugs].map((path) => stat(path).then(() => true, () => false)));
  if (!present.some(Boolean)) {
    throw new EngineError('usage', `${dir} is not a run dir: it has none of ${RUN_LAYOUT.runConfig}, ${RUN_LAYOUT.metrics}, ${RUN_LAYOUT.episodes}, ${RUN_LAYOUT.bugs}/ (give the --out directory of ssr selfplay or ssr corpus)`);
  }
  const notes: string[] = [];
  const config = await readJsonFile(paths.runConfig, runConfigSchema, { optional: true });
  if (config === null) notes.push(`${RUN_LAYOUT.runConfig} is missing: the run's settings are unknown`);
  if (config?.config.allowOneUserGrading === true) {
    notes.push('WARNING: this run was allowed to grade where the tests run as the sandbox\'s only user (--allow-one-user-grading): code under test could forge a +1, so its rewards may be forged (docs/grading.md, "One user only")');
  }

  const metrics = await readJsonl(paths.metrics, stepMetricsSchema);
  if (metrics.torn) notes.push(`the last line of ${RUN_LAYOUT.metrics} is incomplete (a step still being written, or the run was killed): ignored`);
  if (!present[1]) notes.push(`${RUN_LAYOUT.metrics} is missing: no per-step plots`);

  const episodeLines = await readJsonl(paths.episodes, episodeRecordSchema);
  if (episodeLines.torn) notes.push(`the last line of ${RUN_LAYOUT.episodes} is incomplete: ignored`);
  // The last line of an id wins: a completed retry supersedes a discarded attempt.
  const latest = new Map<string, EpisodeRecord>();
  for (const record of episodeLines.records) latest.set(record.id, record);
  const episodes = [...latest.values()];

  // The golden gate's verdicts (run dirs written before it existed have none).
  const gates = (await readJsonFile(paths.goldenGate, z.array(goldenGateSchema), { optional: true })) ?? [];
  notes.push(...gates.map(describeGoldenGate));

  const { rows, total } = await readBugRows(paths, episodes, options.bugLimit ?? 50);
  const quality = await readBugQuality(paths);
  const heldOutAtStart = await readJsonFile(join(root, HELD_OUT_AT_START), heldOutMetricsSchema, { optional: true });
  return { dir: root, name: basename(root), config, steps: metrics.records, episodes, bugs: rows, bugCount: total, quality, notes, heldOutAtStart };
}
