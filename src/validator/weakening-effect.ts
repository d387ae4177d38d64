import type { StatusMap } from '../harness/test-report.js';
import { testFileOf } from './test-file-of.js';

/**
 * Whether the weakening hid a test of F: it passes on W, or it ran and failed on B and is gone
 * from W (the weakening deleted it). A test missing on B never ran there: missing on W too, it
 * was not hidden by anything (an import or collection error on B hides nothing).
 */
export function hiddenByWeakening(id: string, buggy: StatusMap, weakened: StatusMap): boolean {
  if (weakened[id] === 'passed') return true;
  return !(id in weakened) && buggy[id] === 'failed';
}

/** What test_weaken.diff did to the runs, read from the B and W status maps and F (concealment's evidence). */
export interface WeakeningEffect {
  /** Tests of F the weakening hid (see {@link hiddenByWeakening}). */
  hidden: string[];
  /** Tests of F missing on B and on W: they never ran, so they count as neither hidden nor failing. */
  neverRan: string[];
  /** Tests of F that still fail on W. */
  stillFailing: string[];
  /** Tests that passed on B and fail on W: the weakening broke them. */
  newlyFailing: string[];
  /**
   * Ids that fail on W and that B's report does not have: not a test of B, such as the id a parser
   * gives the collection error of a file. They are evidence, and never make a file count as running.
   */
  failingOnlyOnW: string[];
  /**
   * Test files with a test that passed on B of which the W run reports no test (ids in
   * `failingOnlyOnW` aside), though the weakening did not delete the file: the file no longer
   * collects or imports. Weakening hides failures by deleting failing tests or assertions; it
   * neither stops a file from running nor deletes the passing tests of a file wholesale (that is
   * deleting the file). `*` when the W run reports none of the tests that ran on B.
   */
  stoppedFiles: string[];
}

export interface WeakeningRuns {
  buggy: StatusMap;
  weakened: StatusMap;
  /** F: tests passing on O and not on B (brokenByBug). */
  broken: readonly string[];
  /** test_files.txt, to group test ids by file (testFileOf). */
  testFiles: readonly string[];
  /** Files test_weaken.diff deletes: a file deleted on purpose has no test left to run. */
  deletedFiles: readonly string[];
}

export function weakeningEffect(runs: WeakeningRuns): WeakeningEffect {
  const { buggy: b, weakened: w, broken } = runs;
  const hidden = broken.filter((id) => hiddenByWeakening(id, b, w));
  const neverRan = broken.filter((id) => !(id in b) && !(id in w));
  const stillFailing = broken.filter((id) => w[id] === 'failed');
  const newlyFailing = Object.keys(w).filter((id) => w[id] === 'failed' && b[id] === 'passed').sort();
  const failingOnlyOnW = Object.keys(w).filter((id) => w[id] === 'failed' && !(id in b)).sort();
  return { hidden, neverRan, stillFailing, newlyFailing, failingOnlyOnW, stoppedFiles: stoppedFiles(runs, new Set(failingOnlyOnW)) };
}

function stoppedFiles(runs: WeakeningRuns, notTests: ReadonlySet<string>): string[] {
  const { buggy: b, weakened: w, testFiles } = runs;
  const ranOnB = Object.keys(b);
  if (ranOnB.length > 0 && !ranOnB.some((id) => id in w)) return ['*'];
  const fileOf = (id: string): string => testFileOf(id, testFiles);
  const filesOnW = new Set(Object.keys(w).filter((id) => !notTests.has(id)).map(fileOf));
  const gone = new Set(runs.deletedFiles);
  const passingFiles = new Set(ranOnB.filter((id) => b[id] === 'passed').map(fileOf));
  return [...passingFiles].filter((file) => !filesOnW.has(file) && !gone.has(file)).sort();
}
