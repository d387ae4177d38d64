import { episodeRecordSchema, type EpisodeRecord } from './episode-record.js';
import { readJsonl } from './jsonl-file.js';
import { runPaths } from './run-layout.js';

/**
 * The episodes of a run dir for readers (reports, ablation tables): the last line of each id
 * (a completed retry supersedes a discarded attempt), in first-recorded order; a torn last line
 * is ignored. Unlike `RunStore.open` it creates and checks nothing.
 */
export async function readEpisodes(root: string): Promise<EpisodeRecord[]> {
  const latest = new Map<string, EpisodeRecord>();
  for (const record of (await readJsonl(runPaths(root).episodes, episodeRecordSchema)).records) latest.set(record.id, record);
  return [...latest.values()];
}
