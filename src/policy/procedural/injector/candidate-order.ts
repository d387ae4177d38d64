import type { BugCandidate } from './bug-candidate.js';
import { coveringTests, type TestCoverage } from './covering-tests.js';
import type { BreadthCap } from './judge-attempt.js';

/**
 * What a candidate's coverage says before it is run: `narrow` — the test files that execute its
 * lines are fewer than the breadth cap allows to fail, so no run of it can be too blunt by files;
 * `wide` — more of them; `everywhere` — every test file executes it, or it runs at import time
 * outside any test (a whole-suite run, most often too blunt or a module that no longer imports),
 * or nothing is known (no map, a command's change).
 */
export type Reach = 'narrow' | 'wide' | 'everywhere';

/** A candidate's {@link Reach} from the clean run's per-test-file coverage. */
export function reachOf(candidate: BugCandidate, coverage: TestCoverage | null, breadth: BreadthCap): Reach {
  if (candidate.apply.type !== 'edit') return 'everywhere';
  const tests = coveringTests(coverage, candidate.file, candidate.record.line, candidate.record.endLine);
  if (tests.status === 'full') return 'everywhere';
  return tests.files.length <= breadth.maxFailingFiles ? 'narrow' : 'wide';
}

const RANK: Record<Reach, number> = { narrow: 0, wide: 1, everywhere: 2 };

/**
 * The candidates in the order to try them: narrow ones first, then wide, then those that reach
 * everywhere, each group in its drawn (seeded) order. On h11 the first candidate tried was often a
 * change every test file executes, run on the whole suite and thrown away as too blunt; it now
 * waits behind the changes that can only break a few files. Without coverage the order is kept.
 */
export function orderByReach(candidates: readonly BugCandidate[], coverage: TestCoverage | null, breadth: BreadthCap): BugCandidate[] {
  if (!coverage) return [...candidates];
  const ranked = candidates.map((candidate, index) => ({ candidate, index, rank: RANK[reachOf(candidate, coverage, breadth)] }));
  return ranked.sort((a, b) => a.rank - b.rank || a.index - b.index).map((r) => r.candidate);
}
