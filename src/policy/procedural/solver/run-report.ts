/** One line of code that failing tests executed: the counts spectrum-based localisation needs. */
export interface SpectrumLine {
  /** Repo-relative path of a code (non-test) file. */
  file: string;
  /** 1-based. */
  line: number;
  /** Failing tests that executed it. */
  failed: number;
  /** Passing tests that executed it. */
  passed: number;
}

export interface Spectrum {
  /** Failing tests in the run (the Ochiai denominator's total). */
  totalFailed: number;
  totalPassed: number;
  /** Failing tests that no coverage context matched (their lines are missing from `lines`). */
  unmatched: number;
  lines: SpectrumLine[];
  /** Lines of the spectrum's files that ran only at import time (module level: constants, defaults). */
  importLines: { file: string; line: number }[];
}

/** A traceback frame in a code file, over all failing tests of a run. */
export interface FrameHit {
  file: string;
  line: number;
  /** Failing tests whose traceback passes through it. */
  tests: number;
  /** Failing tests for which it is the innermost code frame (where the exception surfaced). */
  deepest: number;
}

/** What the in-sandbox report script said about one test run (see `report-script.ts`). */
export interface RunReport {
  /** Exit code of the test command (124: killed by `timeout`); null when unknown. */
  exitCode: number | null;
  seconds: number;
  /** pytest printed its summary: the run finished and its counts mean something. */
  finished: boolean;
  passed: number;
  /** Ids of failing tests, sorted; at most the script's `--max-failed`. */
  failing: string[];
  /** Total failing tests (may exceed `failing.length` when the list was cut). */
  failedCount: number;
  frames: FrameHit[];
  /** Null when the run had no coverage. */
  spectrum: Spectrum | null;
}
