import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { artifactId } from '../artifact/artifact-id.js';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { EngineError } from '../util/engine-error.js';
import { writeJsonAtomic } from './atomic-write.js';
import { bugMetadataSchema, type BugMetadata } from './bug-metadata.js';
import { buggyTreeHash } from './buggy-tree-hash.js';
import { describeBugQuality, type BugQuality } from '../validator/bug-quality.js';
import { episodeRecordSchema, type EpisodeRecord } from './episode-record.js';
import { appendJsonlLocked, readJsonl } from './jsonl-file.js';
import { withPathLock } from './path-lock.js';
import { readJsonFile } from './read-json-file.js';
import { listBugDirs } from './read-stored-bug.js';
import { ensureRunConfig } from './run-config.js';
import { claimRunLock, releaseRunLock } from './run-lock.js';
import { RUN_LAYOUT, runPaths, type RunPaths } from './run-layout.js';
import { solveAttemptSchema, summariseSolves, type SolveAttempt, type SolvesRecord } from './solves-record.js';
import { storedValidationSchema } from './stored-validation.js';
import { writeStoredBug, type ValidationToStore } from './write-stored-bug.js';

/** The pid file of the process writing the run dir (dot-named: not part of the layout). */
const RUN_LOCK = '.lock';

const metricsLineSchema = z.looseObject({ step: z.number().int().nonnegative() });
export type MetricsLine = z.infer<typeof metricsLineSchema>;

export interface WriteBugInput {
  artifact: BugArtifact;
  validation: ValidationToStore;
  /** metadata.json without the fields the store derives (`id`, `buggyTreeHash`, `quality`). */
  metadata: Omit<BugMetadata, 'id' | 'buggyTreeHash' | 'quality'>;
}

/** `written`; `exists`: this id was stored before (a re-run); `duplicate`: a valid bug with the same buggy tree is stored as `of`. */
export type WriteBugResult =
  | { status: 'written' | 'exists'; id: string; buggyTreeHash: string }
  | { status: 'duplicate'; id: string; buggyTreeHash: string; of: string };

/**
 * The durable, idempotent store of one run dir (layout: {@link RUN_LAYOUT}). Every write is atomic
 * (temp + rename, or one whole-line append) and keyed by id, so a process killed at any moment
 * and re-run with the same command loses nothing and duplicates nothing. One process per run dir
 * (a pid file refuses a second live one); call {@link RunStore.close} when done.
 */
export class RunStore {
  private readonly episodeIndex = new Map<string, EpisodeRecord>();
  private readonly validTrees = new Map<string, string>();
  /** Quality records of the valid bugs stored, by id (for the run's distributions). */
  private readonly validQuality = new Map<string, BugQuality>();
  private readonly bugIds = new Set<string>();
  private readonly metricSteps = new Set<number>();

  private constructor(
    readonly paths: RunPaths,
    /** The run dir existed with a matching run.json. */
    readonly resumed: boolean,
  ) {}

  /**
   * Open (or create) a run dir: check run.json against `command` and `config` (see
   * {@link ensureRunConfig}), drop what a killed process left half-written, load the indexes.
   */
  static async open(root: string, options: { command: string; config: Record<string, unknown> }): Promise<RunStore> {
    const paths = runPaths(root);
    await mkdir(paths.bugs, { recursive: true });
    await mkdir(paths.trajectories, { recursive: true });
    await mkdir(paths.samples, { recursive: true });
    await claimRunLock(join(root, RUN_LOCK));
    try {
      const resumed = (await ensureRunConfig(paths.runConfig, options.command, options.config)) === 'resumed';
      const store = new RunStore(paths, resumed);
      await store.load();
      return store;
    } catch (error) {
      await releaseRunLock(join(root, RUN_LOCK));
      throw error;
    }
  }

  private async load(): Promise<void> {
    for (const name of await readdir(this.paths.bugs)) {
      if (name.startsWith('.')) await rm(join(this.paths.bugs, name), { recursive: true, force: true });
    }
    for (const record of (await readJsonl(this.paths.episodes, episodeRecordSchema)).records) this.episodeIndex.set(record.id, record);
    for (const line of (await readJsonl(this.paths.metrics, metricsLineSchema)).records) this.metricSteps.add(line.step);
    for (const id of await listBugDirs(this.paths.bugs)) {
      const dir = this.paths.bugDir(id);
      const metadata = await readJsonFile(join(dir, 'metadata.json'), bugMetadataSchema);
      const validation = await readJsonFile(join(dir, RUN_LAYOUT.validation), storedValidationSchema);
      this.bugIds.add(id);
      if (validation!.valid && !this.validTrees.has(metadata!.buggyTreeHash)) this.validTrees.set(metadata!.buggyTreeHash, id);
      if (validation!.valid && metadata!.quality) this.validQuality.set(id, metadata!.quality);
    }
  }

  /** Release the run dir for other processes (a killed process's lock is taken over anyway). */
  close(): Promise<void> {
    return releaseRunLock(join(this.paths.root, RUN_LOCK));
  }

  /** A completed record of this episode exists (a discarded one may be retried). */
  hasEpisode(id: string): boolean {
    return this.episodeIndex.get(id)?.status === 'completed';
  }

  /** The latest record of an episode. */
  episode(id: string): EpisodeRecord | undefined {
    return this.episodeIndex.get(id);
  }

  /** The latest record of every episode, in the order they were first recorded. */
  episodes(): EpisodeRecord[] {
    return [...this.episodeIndex.values()];
  }

  /**
   * Append an episode record unless it would repeat one: nothing follows a completed record of
   * the same id, and a discarded one is followed only by a completed one (the retry that worked).
   * @returns whether a line was written.
   * @throws EngineError `internal` for a record that does not match {@link episodeRecordSchema}.
   */
  async recordEpisode(record: EpisodeRecord): Promise<boolean> {
    const parsed = episodeRecordSchema.safeParse(record);
    if (!parsed.success) throw new EngineError('internal', `episode record ${record.id}: ${parsed.error.message}`);
    return withPathLock(this.paths.episodes, async () => {
      const previous = this.episodeIndex.get(record.id);
      if (previous && (previous.status === 'completed' || parsed.data.status === 'discarded')) return false;
      await appendJsonlLocked(this.paths.episodes, [parsed.data]);
      this.episodeIndex.set(record.id, parsed.data);
      return true;
    });
  }

  hasBug(id: string): boolean {
    return this.bugIds.has(id);
  }

  /** Quality records (breadth, kind, weakening) of the valid bugs stored, one per buggy tree; `except` leaves some out (anchor bugs: not the run's own). */
  validBugQualities(except: ReadonlySet<string> = new Set()): BugQuality[] {
    return [...this.validQuality].filter(([id]) => !except.has(id)).map(([, quality]) => quality);
  }

  /** The valid bug stored with this buggy tree, if any. */
  validBugForTree(hash: string): string | null {
    return this.validTrees.get(hash) ?? null;
  }

  /**
   * Store a bug dir under its content id ({@link artifactId}). A *valid* bug whose buggy tree
   * ({@link buggyTreeHash}) equals a stored valid bug's is not written (`duplicate`); invalid bugs
   * are always kept (for analysis) and never block a valid one.
   */
  async writeBug(input: WriteBugInput): Promise<WriteBugResult> {
    const id = artifactId(input.artifact);
    const hash = buggyTreeHash({ repo: input.metadata.repo, commit: input.metadata.commit, bugInject: input.artifact.bugInject });
    return withPathLock(this.paths.bugs, async (): Promise<WriteBugResult> => {
      if (this.bugIds.has(id)) return { status: 'exists', id, buggyTreeHash: hash };
      const of = input.validation.valid ? this.validTrees.get(hash) : undefined;
      if (of !== undefined) return { status: 'duplicate', id, buggyTreeHash: hash, of };
      const quality = describeBugQuality(input.artifact, input.validation, input.metadata.strategy);
      const metadata = bugMetadataSchema.parse({ ...input.metadata, id, buggyTreeHash: hash, quality });
      const written = await writeStoredBug(this.paths.bugDir(id), input.artifact, metadata, input.validation);
      this.bugIds.add(id);
      if (input.validation.valid) this.validTrees.set(hash, id);
      if (input.validation.valid) this.validQuality.set(id, quality);
      return { status: written ? 'written' : 'exists', id, buggyTreeHash: hash };
    });
  }

  /** (Re)write a stored bug's solves.json from its attempts; counts and solve rate are derived. */
  async writeSolves(bugId: string, attempts: SolveAttempt[]): Promise<SolvesRecord> {
    if (!this.bugIds.has(bugId)) throw new EngineError('internal', `cannot record solves of ${bugId}: no such bug in ${this.paths.bugs}`);
    const record = summariseSolves(attempts.map((attempt) => solveAttemptSchema.parse(attempt)));
    await writeJsonAtomic(join(this.paths.bugDir(bugId), RUN_LAYOUT.solves), record);
    return record;
  }

  /** Where the trajectory `id` goes (`JsonlTrajectoryWriter.open` it). */
  trajectoryPath(id: string): string {
    return this.paths.trajectory(id);
  }

  hasMetrics(step: number): boolean {
    return this.metricSteps.has(step);
  }

  /** Append a step's metrics line unless that step already has one. @returns whether it was written. */
  async recordMetrics(line: MetricsLine): Promise<boolean> {
    const parsed = metricsLineSchema.parse(line);
    return withPathLock(this.paths.metrics, async () => {
      if (this.metricSteps.has(parsed.step)) return false;
      await appendJsonlLocked(this.paths.metrics, [parsed]);
      this.metricSteps.add(parsed.step);
      return true;
    });
  }
}
