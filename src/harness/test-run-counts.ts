import { z } from 'zod';

const count = z.number().int().nonnegative();

/**
 * Kinds of test run an episode makes. `original`: the clean suite (validation's O runs, twice);
 * `buggy`, `weakened`, `inverse` (one per changed file): the other states of the bug; `order`: the
 * order-independence check's own run; `audit`: the full run of B that checks a restricted
 * validation; `coverage`: the validator's traced run of O (once per run, shared by its bugs); `grading`:
 * one per graded Solver attempt; `injector`: the Injector's own runs (its clean run and one per
 * candidate change), when its policy reports them.
 */
export const TEST_RUN_KINDS = ['original', 'buggy', 'weakened', 'inverse', 'order', 'audit', 'coverage', 'grading', 'injector'] as const;
export type TestRunKind = (typeof TEST_RUN_KINDS)[number];

/** Whether a run ran the whole suite or only the tests relevant to the bug (test selection). */
export type TestRunScope = 'full' | 'restricted';

const tally = z.object({ full: count, restricted: count });
export type TestRunTally = z.infer<typeof tally>;

/**
 * Test runs actually started, by kind: a run answered from the baseline cache (an earlier bug's
 * O run) cost nothing and is not counted; a retried run counts twice. Kinds with no run are left out.
 */
export const testRunCountsSchema = z.record(z.string(), tally);
export type TestRunCounts = z.infer<typeof testRunCountsSchema>;

/** Counts the test runs of one episode (or one validation); threaded through the run context. */
export class TestRunCounter {
  private readonly counts: TestRunCounts = {};

  add(kind: TestRunKind, scope: TestRunScope, runs = 1): void {
    const entry = (this.counts[kind] ??= { full: 0, restricted: 0 });
    entry[scope] += runs;
  }

  /** Add every count of `other` (a validation's, an attempt's) to this one. */
  addAll(other: TestRunCounts): void {
    addInto(this.counts, other);
  }

  /** A copy of the counts so far. */
  snapshot(): TestRunCounts {
    return sumTestRuns([this.counts]);
  }
}

/**
 * The Injector's own runs as its metadata.json reports them (`testRuns: {full, restricted}`, the
 * procedural policy's); null when it reports none (a model's Injector, an older policy).
 */
export function injectorRunsOf(metadata: Record<string, unknown> | undefined): TestRunTally | null {
  const parsed = tally.safeParse(metadata?.testRuns);
  return parsed.success ? parsed.data : null;
}

/** The sum of several count maps (a step's episodes). */
export function sumTestRuns(list: readonly (TestRunCounts | undefined)[]): TestRunCounts {
  const out: TestRunCounts = {};
  for (const counts of list) addInto(out, counts ?? {});
  return out;
}

function addInto(target: TestRunCounts, counts: TestRunCounts): void {
  for (const [kind, entry] of Object.entries(counts)) {
    const sum = (target[kind] ??= { full: 0, restricted: 0 });
    sum.full += entry.full;
    sum.restricted += entry.restricted;
  }
}

/** All runs of a count map, and how many of them ran the full suite. */
export function totalTestRuns(counts: TestRunCounts | undefined): { runs: number; full: number } {
  let runs = 0;
  let full = 0;
  for (const entry of Object.values(counts ?? {})) {
    runs += entry.full + entry.restricted;
    full += entry.full;
  }
  return { runs, full };
}
