import type { FrameHit, RunReport, SpectrumLine } from './run-report.js';

const RUN = /^#run exit=(\S+) seconds=(\d+) summary=(yes|no) passed=(\d+) failed=(\d+)$/;
const SPECTRUM = /^#spectrum failed=(\d+) passed=(\d+) unmatched=(\d+) lines=\d+$/;

/**
 * Parse the report script's output out of an observation (other text around it is ignored).
 * Returns null when the script never ran (no `#run` line): a shell-level failure, not a result.
 */
export function readRunReport(observation: string): RunReport | null {
  let report: RunReport | null = null;
  const frames: FrameHit[] = [];
  const failing: string[] = [];
  let spectrum: RunReport['spectrum'] = null;
  const lines: SpectrumLine[] = [];
  const importLines: { file: string; line: number }[] = [];
  for (const line of observation.split('\n')) {
    const run = RUN.exec(line);
    if (run) {
      const exit = Number(run[1]);
      report = {
        exitCode: Number.isInteger(exit) ? exit : null,
        seconds: Number(run[2]),
        finished: run[3] === 'yes',
        passed: Number(run[4]),
        failedCount: Number(run[5]),
        failing,
        frames,
        spectrum: null,
      };
    } else if (line.startsWith('#failed ')) failing.push(line.slice('#failed '.length));
    else if (line.startsWith('#frame ')) {
      const [file, at, tests, deepest] = line.slice('#frame '.length).split('\t');
      if (file && deepest !== undefined) frames.push({ file, line: Number(at), tests: Number(tests), deepest: Number(deepest) });
    } else {
      const header = SPECTRUM.exec(line);
      if (header) spectrum = { totalFailed: Number(header[1]), totalPassed: Number(header[2]), unmatched: Number(header[3]), lines, importLines };
      else if (line.startsWith('#import ')) {
        const [file, at] = line.slice('#import '.length).split('\t');
        if (file && /^\d+$/.test(at ?? '')) importLines.push({ file, line: Number(at) });
      } else if (spectrum) {
        const [file, at, failed, passed] = line.split('\t');
        if (file && passed !== undefined && /^\d+$/.test(at ?? '')) lines.push({ file, line: Number(at), failed: Number(failed), passed: Number(passed) });
      }
    }
  }
  return report ? { ...report, spectrum } : null;
}
