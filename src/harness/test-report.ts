import { z } from 'zod';
import type { GuardReport } from './guard-report.js';
import type { MaterialReport } from './test-material.js';

/** The only two statuses a test parser may print (method §2). */
export const testStatusSchema = z.enum(['passed', 'failed']);
export type TestStatus = z.infer<typeof testStatusSchema>;

/** What `test_parser.py` must print on stdout: test id → status. */
export const statusMapSchema = z.record(z.string().min(1), testStatusSchema);
export type StatusMap = z.infer<typeof statusMapSchema>;

/** Why a parser's output could not be turned into a status map. */
export type ParserFailure =
  | { code: 'parser-timeout'; message: string }
  | { code: 'parser-crashed'; message: string; exitCode: number | null; stderr: string }
  | { code: 'parser-output-not-json'; message: string; head: string }
  | { code: 'parser-output-bad-schema'; message: string; head: string };

/**
 * One run of test_script.sh + test_parser.py inside a sandbox.
 * `statuses` is empty when `parserFailure` is set; it is never guessed.
 */
export interface TestReport {
  statuses: StatusMap;
  /** The test script hit its time limit (its process tree was killed). */
  timedOut: boolean;
  /** Exit code of test_script.sh (null if killed). */
  exitCode: number | null;
  /** Wall time of the script run, ms. */
  durationMs: number;
  /** Wall time of the parser run, ms. */
  parserDurationMs: number;
  /** Size of the full raw log in bytes (the stored log may be capped). */
  logBytes: number;
  /** The raw log, capped (head and tail kept). */
  log: string;
  parserFailure?: ParserFailure;
  /** What the guard plugin saw (see guard-report.ts); absent when the run was not guarded. */
  guard?: GuardReport;
  /** How the test material was protected during the run and what of it changed (test-material.ts); absent when unguarded. */
  material?: MaterialReport;
}
