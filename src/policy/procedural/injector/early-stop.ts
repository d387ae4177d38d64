import type { CandidateTests } from './covering-tests.js';
import { MAX_BROKEN, type BreadthCap } from './judge-attempt.js';
import type { RepoFacts } from './repo-facts.js';
import { groupOfFile } from './test-suite.js';

/**
 * pytest's `--maxfail` for a candidate's run: a number of failures no change judgeAttempt could
 * accept reaches, so stopping there only cuts short a run that is rejected anyway (too blunt).
 * An accepted change breaks at most MAX_BROKEN tests, and at most the breadth cap of the clean
 * files' tests (the others: tests of files that already fail on the original); the tests that fail
 * on the original may fail again; and pytest counts a test's failing phases apart (a failed call
 * and a teardown error: two). Undefined (no stop) for other runners, which have no such option.
 */
export function candidateMaxFail(facts: RepoFacts, tests: CandidateTests, breadth: BreadthCap): number | undefined {
  if (facts.suite.kind !== 'pytest') return undefined;
  const scope = tests.status === 'full' ? null : new Set(tests.files.map((file) => groupOfFile(facts.suite, file)));
  let failingBefore = 0;
  let notOracle = 0;
  for (const [group, counts] of facts.baseline.groups) {
    if (scope && !scope.has(group)) continue;
    failingBefore += counts.failed;
    if ((facts.perFile.get(group)?.failed ?? 1) !== 0) notOracle += counts.passed;
  }
  const accepted = Math.min(MAX_BROKEN, breadth.maxFailingTests + notOracle);
  return 2 * (failingBefore + accepted) + 1;
}
