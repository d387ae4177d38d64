import { join } from 'node:path';
import { ARTIFACT_FILES } from '../artifact/bug-artifact.js';
import { bugMetadataSchema } from '../corpus/bug-metadata.js';
import { qualityDistribution, type QualityDistribution } from '../corpus/quality-distribution.js';
import { readJsonFile } from '../corpus/read-json-file.js';
import { listBugDirs } from '../corpus/read-stored-bug.js';
import { RUN_LAYOUT, type RunPaths } from '../corpus/run-layout.js';
import { storedValidationSchema } from '../corpus/stored-validation.js';

/**
 * The distribution of every valid bug dir of the run (not only the table's latest): breadth, kind,
 * weakening granularity from each metadata.json's `quality` (see describeBugQuality). Bug dirs
 * still being written (no validation.json) and those from before quality existed are left out.
 */
export async function readBugQuality(paths: RunPaths): Promise<QualityDistribution> {
  const qualities = [];
  for (const id of await listBugDirs(paths.bugs)) {
    const dir = paths.bugDir(id);
    const validation = await readJsonFile(join(dir, RUN_LAYOUT.validation), storedValidationSchema, { optional: true });
    if (!validation?.valid) continue;
    const metadata = await readJsonFile(join(dir, ARTIFACT_FILES.metadata), bugMetadataSchema.loose(), { optional: true });
    if (metadata?.quality) qualities.push(metadata.quality);
  }
  return qualityDistribution(qualities);
}
