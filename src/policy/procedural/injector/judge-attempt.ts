import type { RepoFacts } from './repo-facts.js';
import { failsOnBehaviour, timedOut, type BrokenTest, type RunSummary } from './run-summary.js';
import { locateTest } from './test-ids.js';

/** A change that breaks more tests than this is too blunt to be an interesting bug (and too long to hide). */
export const MAX_BROKEN = 60;

export type AttemptVerdict =
  | {
      status: 'accepted';
      /** Every test broken by the change (passed on O, not passing now). */
      broken: BrokenTest[];
      /** Ids of the broken tests that fail on behaviour, in test files that are clean on O. */
      behavioural: string[];
    }
  | { status: 'rejected'; reason: string };

/**
 * Judge one tried change from its run: keep it when at least `minFailing` tests that passed
 * before now fail on behaviour (an assertion, a wrong exception) in test files with no failure
 * on the original; refuse it when a module no longer imports, when nothing or only
 * import/name errors break (method §7: tests must fail on behaviour), when too much breaks
 * (more than the validator's breadth cap: the bug would be rejected as blunt, or so many that the
 * run stopped early, see candidateMaxFail), or when the run timed out.
 */
export function judgeAttempt(summary: RunSummary | null, facts: RepoFacts, minFailing: number, breadth: BreadthCap = NO_CAP): AttemptVerdict {
  if (!summary) return { status: 'rejected', reason: 'the test run or its parser failed' };
  if (summary.markers.has('apply-failed')) return { status: 'rejected', reason: 'the change does not apply' };
  // A run killed at its limit (a loop, or a machine too slow for it) says nothing reliable.
  if (timedOut(summary)) return { status: 'rejected', reason: 'the run timed out' };
  const stopped = summary.markers.get('stopped');
  if (stopped !== undefined) return { status: 'rejected', reason: `it breaks too much (the run stopped after ${stopped} failures)` };
  const broken = summary.broken;
  if (summary.more > 0 || broken.length > MAX_BROKEN) return { status: 'rejected', reason: `it breaks too much (${broken.length + summary.more} tests)` };
  const collection = broken.filter((t) => t.exc === 'collection');
  if (collection.length > 0) return { status: 'rejected', reason: `a test module no longer imports (${collection[0]!.id})` };
  if (broken.length === 0) return { status: 'rejected', reason: 'no test notices it' };
  const language = facts.suite.kind === 'js' ? 'javascript' : 'python';
  const behavioural = broken.filter((t) => failsOnBehaviour(t, language) && isClean(t.id, facts)).map((t) => t.id);
  if (behavioural.length < minFailing) {
    const kinds = [...new Set(broken.map((t) => t.exc))].join(', ');
    return { status: 'rejected', reason: `only ${behavioural.length} test(s) fail on behaviour (failures: ${kinds})` };
  }
  // The validator's breadth check counts every broken test of the oracle (clean) files.
  const oracle = broken.filter((t) => isClean(t.id, facts));
  const files = new Set(oracle.map((t) => locateTest(t.id, facts.suite, facts.testFiles)?.file));
  if (oracle.length > breadth.maxFailingTests) return { status: 'rejected', reason: `too blunt: ${oracle.length} tests fail (cap ${breadth.maxFailingTests})` };
  if (files.size > breadth.maxFailingFiles) return { status: 'rejected', reason: `too blunt: tests fail in ${files.size} test files (cap ${breadth.maxFailingFiles})` };
  return { status: 'accepted', broken, behavioural };
}

/** The validator's breadth cap (thresholds max_failing_tests / max_failing_files), as the prompt states it. */
export interface BreadthCap {
  maxFailingTests: number;
  maxFailingFiles: number;
}
const NO_CAP: BreadthCap = { maxFailingTests: Infinity, maxFailingFiles: Infinity };

/** Whether a test lives in a test file whose tests all pass on the original repo. */
export function isClean(id: string, facts: RepoFacts): boolean {
  const file = locateTest(id, facts.suite, facts.testFiles)?.file;
  return !!file && (facts.perFile.get(file)?.failed ?? 1) === 0;
}
