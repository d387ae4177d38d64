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
  /**
   * Ids that fail on W and did not on B, other than tests of F: tests the weakening broke, or
   * ids no run of B had (a parser reporting the collection error of a test file as a failure).
   */
  newlyFailing: string[];
  /**
   * Test files with a test that passed on B of which the W run reports no test at all, though the
   * weakening did not delete the file: the file no longer collects or imports (weakening hides
   * failures by deleting tests or assertions; it does not stop a file from running). `*` when the
   * W run reports none of the tests that ran on B.
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
  const { buggy: b, weakened: w, broken, testFiles } = runs;
  const inF = new Set(broken);
  const hidden = broken.filter((id) => hiddenByWeakening(id, b, w));
  const neverRan = broken.filter((id) => !(id in b) && !(id in w));
  const stillFailing = broken.filter((id) => w[id] === 'failed');
  const newlyFailing = Object.keys(w)
    .filter((id) => w[id] === 'failed' && b[id] !== 'failed' && !inF.has(id))
    .sort();
  return { hidden, neverRan, stillFailing, newlyFailing, stoppedFiles: stoppedFiles(b, w, testFiles, runs.deletedFiles) };
}

function stoppedFiles(b: StatusMap, w: StatusMap, testFiles: readonly string[], deleted: readonly string[]): string[] {
  const ranOnB = Object.keys(b);
  if (ranOnB.length > 0 && !ranOnB.some((id) => id in w)) return ['*'];
  const fileOf = (id: string): string => testFileOf(id, testFiles);
  const filesOnW = new Set(Object.keys(w).map(fileOf));
  const gone = new Set(deleted);
  const passingFiles = new Set(ranOnB.filter((id) => b[id] === 'passed').map(fileOf));
  return [...passingFiles].filter((file) => !filesOnW.has(file) && !gone.has(file)).sort();
}
