import { appendJsonlLocked, readJsonl } from '../corpus/jsonl-file.js';
import { withPathLock } from '../corpus/path-lock.js';
import { runPaths } from '../corpus/run-layout.js';
import { EngineError } from '../util/engine-error.js';
import { trainingSampleSchema, type TrainingSample } from './training-sample.js';

/**
 * Appends training samples to `<run>/samples/v<version>.jsonl`, idempotently: a sample whose id is
 * already in the file is skipped, so a step re-run after a crash writes each sample once. The ids
 * of a file are read once per writer (files can be large: token ids) and then kept.
 */
export class SampleWriter {
  private readonly ids = new Map<number, Set<string>>();

  constructor(readonly runDir: string) {}

  /**
   * @returns how many samples were written and how many were already there.
   * @throws EngineError `internal` for a sample that does not match {@link trainingSampleSchema}.
   */
  async append(version: number, samples: readonly TrainingSample[]): Promise<{ written: number; skipped: number }> {
    const valid = samples.map((sample) => {
      const parsed = trainingSampleSchema.safeParse(sample);
      if (!parsed.success) throw new EngineError('internal', `training sample ${sample.id}: ${parsed.error.message}`);
      return parsed.data;
    });
    const path = runPaths(this.runDir).samplesFile(version);
    return withPathLock(path, async () => {
      const ids = await this.idsOf(version, path);
      const batch = new Set<string>();
      const fresh = valid.filter((sample) => !ids.has(sample.id) && !batch.has(sample.id) && batch.add(sample.id));
      await appendJsonlLocked(path, fresh);
      for (const sample of fresh) ids.add(sample.id);
      return { written: fresh.length, skipped: valid.length - fresh.length };
    });
  }

  private async idsOf(version: number, path: string): Promise<Set<string>> {
    let ids = this.ids.get(version);
    if (!ids) {
      ids = new Set((await readJsonl(path, trainingSampleSchema)).records.map((sample) => sample.id));
      this.ids.set(version, ids);
    }
    return ids;
  }
}

/** The samples of one version file (a torn last line ignored). */
export async function readSamples(runDir: string, version: number): Promise<TrainingSample[]> {
  return (await readJsonl(runPaths(runDir).samplesFile(version), trainingSampleSchema)).records;
}
