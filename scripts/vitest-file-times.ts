/**
 * Usage: npx tsx scripts/vitest-file-times.ts REPORT.json [TOP]
 *
 * Where a vitest run's wall time went, file by file, from its JSON report (scripts/test writes one:
 * `--reporter=json --outputFile.json=...`): the TOP (default 15) longest files with when each
 * started and ended, in seconds after the first file started, then the sum over all files. On 2
 * forks the suite's wall time is about that sum halved, plus whatever a long file that starts late
 * adds at the end: the figures test/sequencer.ts's SLOW_FIRST is planned from.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

/** The part of vitest's JSON report read here (its jest-compatible testResults). */
const reportSchema = z.object({
  testResults: z.array(z.object({ name: z.string(), startTime: z.number(), endTime: z.number(), status: z.string() })),
});

/** One test file: seconds after the first file's start, and its duration. */
export interface FileTime {
  file: string;
  start: number;
  end: number;
  seconds: number;
  status: string;
}

/** Every file of `report` (paths relative to `root`), longest first. Throws on a report of another shape. */
export function fileTimes(report: unknown, root: string): FileTime[] {
  const { testResults } = reportSchema.parse(report);
  const first = Math.min(...testResults.map((result) => result.startTime));
  return testResults
    .map((result) => ({
      file: relative(root, result.name).split('\\').join('/'),
      start: (result.startTime - first) / 1000,
      end: (result.endTime - first) / 1000,
      seconds: (result.endTime - result.startTime) / 1000,
      status: result.status,
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

/** The table: the `top` longest files, then the count, the sum and the last end. */
export function formatFileTimes(times: FileTime[], top: number): string {
  const rows = times.slice(0, top).map((t) => `${t.seconds.toFixed(0).padStart(6)} s  ${t.start.toFixed(0).padStart(5)} → ${t.end.toFixed(0).padStart(5)}  ${t.file}${t.status === 'passed' ? '' : ` (${t.status})`}`);
  const sum = times.reduce((total, t) => total + t.seconds, 0);
  const last = Math.max(0, ...times.map((t) => t.end));
  return [
    `[file-times] the ${Math.min(top, times.length)} longest test files (duration, start → end in s after the first file started):`,
    ...rows.map((row) => `[file-times] ${row}`),
    `[file-times] ${times.length} files, ${sum.toFixed(0)} s summed over files, last one ended at ${last.toFixed(0)} s`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [path, top = '15'] = process.argv.slice(2);
  if (!path || !/^\d+$/.test(top)) {
    process.stderr.write('usage: scripts/vitest-file-times.ts REPORT.json [TOP]\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(`${formatFileTimes(fileTimes(JSON.parse(readFileSync(path, 'utf8')), process.cwd()), Number(top))}\n`);
  }
}
