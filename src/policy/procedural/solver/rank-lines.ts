import type { SeededRng } from '../../../util/seeded-rng.js';
import type { RunReport, SpectrumLine } from './run-report.js';

/** A line worth trying repairs at, with why. */
export interface SuspiciousLine {
  file: string;
  line: number;
  score: number;
  ochiai: number;
  /** Failing tests whose traceback passes through the line. */
  frameTests: number;
}

/** How much a traceback adds to a line's score (Ochiai is in [0, 1]). */
export const FRAME_BONUS = { deepest: 0.3, anyFrame: 0.1, near: 0.05 } as const;
/**
 * An import-time line (a module constant, a default argument) scores this fraction of the best
 * Ochiai in its file: no test's coverage can point at it, yet operator bugs often sit there.
 */
export const IMPORT_FACTOR = 0.4;
/** Lines this close to an innermost frame are worth a try even without coverage (the cause often sits just above). */
const NEAR_LINES = 3;

/** Ochiai suspiciousness: ef / sqrt(totalFailed · (ef + ep)); 0 when nothing failed. */
export function ochiai(line: Pick<SpectrumLine, 'failed' | 'passed'>, totalFailed: number): number {
  const executed = line.failed + line.passed;
  return totalFailed === 0 || executed === 0 ? 0 : line.failed / Math.sqrt(totalFailed * executed);
}

/**
 * Rank code lines by suspiciousness: Ochiai over the run's coverage spectrum (import-time lines
 * of the same files get a fraction of their file's best), plus a bonus for lines on the failing tests' tracebacks (most for the innermost code frame, where an exception
 * surfaced) and a little for lines just above one. Ties are broken by the seeded generator, so
 * attempts with different seeds try equally suspicious lines in different orders.
 */
export function rankLines(report: Pick<RunReport, 'spectrum' | 'frames'>, rng: SeededRng): SuspiciousLine[] {
  const byKey = new Map<string, SuspiciousLine>();
  const entry = (file: string, line: number): SuspiciousLine => {
    const key = `${file}:${line}`;
    let found = byKey.get(key);
    if (!found) {
      found = { file, line, score: 0, ochiai: 0, frameTests: 0 };
      byKey.set(key, found);
    }
    return found;
  };
  const spectrum = report.spectrum;
  for (const line of spectrum?.lines ?? []) {
    const found = entry(line.file, line.line);
    found.ochiai = ochiai(line, spectrum!.totalFailed);
    found.score += found.ochiai;
  }
  const bestInFile = new Map<string, number>();
  for (const line of byKey.values()) bestInFile.set(line.file, Math.max(bestInFile.get(line.file) ?? 0, line.ochiai));
  for (const { file, line } of spectrum?.importLines ?? []) {
    const found = entry(file, line);
    found.score = Math.max(found.score, IMPORT_FACTOR * (bestInFile.get(file) ?? 0));
  }
  for (const frame of report.frames) {
    const found = entry(frame.file, frame.line);
    found.frameTests = frame.tests;
    found.score += frame.deepest > 0 ? FRAME_BONUS.deepest : FRAME_BONUS.anyFrame;
    if (frame.deepest === 0) continue;
    for (let line = Math.max(1, frame.line - NEAR_LINES); line <= frame.line + NEAR_LINES; line++) {
      if (line !== frame.line) entry(frame.file, line).score += FRAME_BONUS.near;
    }
  }
  const tieBreak = new Map([...byKey.keys()].map((key) => [key, rng.fork(key).next()]));
  return [...byKey.entries()]
    .sort(([ka, a], [kb, b]) => b.score - a.score || tieBreak.get(ka)! - tieBreak.get(kb)!)
    .map(([, line]) => line);
}
