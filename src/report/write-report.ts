import { dirname, join, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../corpus/atomic-write.js';
import { EngineError } from '../util/engine-error.js';
import { readRun, type RunData } from './read-run.js';
import { renderCompareReport } from './render-compare.js';
import { renderRunReport } from './render-report.js';

export const DEFAULT_REPORT_NAME = 'report.html';
export const DEFAULT_COMPARE_NAME = 'compare.html';

/** The run dir as seen from the report's folder, `/`-separated with a trailing slash ('' for the same folder). */
export function linkBase(reportPath: string, runDir: string): string {
  const path = relative(dirname(resolve(reportPath)), resolve(runDir)).split(sep).join('/');
  return path === '' ? '' : `${path}/`;
}

/**
 * Read a run dir and write its report (default `<run>/report.html`, where the bug links resolve
 * without any prefix).
 * @throws EngineError from {@link readRun}; `disk-full` / `internal` when the file cannot be written.
 */
export async function writeRunReport(runDir: string, options: { out?: string; bugLimit?: number } = {}): Promise<{ out: string; run: RunData }> {
  const run = await readRun(runDir, { bugLimit: options.bugLimit });
  const out = resolve(options.out ?? join(run.dir, DEFAULT_REPORT_NAME));
  await writeFileAtomic(out, renderRunReport(run, { linkBase: linkBase(out, run.dir) }));
  return { out, run };
}

/**
 * Read several run dirs and write the overlay report (default `./compare.html`).
 * @throws EngineError `usage` for fewer than two runs or a run dir given twice.
 */
export async function writeCompareReport(runDirs: readonly string[], options: { out?: string } = {}): Promise<{ out: string; runs: RunData[] }> {
  if (runDirs.length < 2) throw new EngineError('usage', `--compare needs at least two run dirs, got ${runDirs.length}`);
  const unique = new Set(runDirs.map((dir) => resolve(dir)));
  if (unique.size < runDirs.length) throw new EngineError('usage', '--compare got the same run dir twice');
  const runs: RunData[] = [];
  for (const dir of runDirs) runs.push(await readRun(dir, { bugLimit: 0 }));
  const names = runs.map((run) => run.name);
  // Runs in different parents may share a folder name: the legend needs them apart.
  for (const run of runs) if (names.filter((name) => name === run.name).length > 1) run.name = relative(process.cwd(), run.dir) || run.name;
  const out = resolve(options.out ?? DEFAULT_COMPARE_NAME);
  await writeFileAtomic(out, renderCompareReport(runs));
  return { out, runs };
}
