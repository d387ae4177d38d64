import type { RepoFacts } from './repo-facts.js';
import type { BrokenTest } from './run-summary.js';
import { locateTest, type TestLocation } from './test-ids.js';

/** A broken test and where it lives. */
export interface HideEntry {
  test: BrokenTest;
  location: TestLocation;
}

/** The oracle tests of a bug: which files the test script runs, and which tests to hide. */
export interface TestSelection {
  /** test_files.txt, in a stable order: files with failing tests first. */
  files: string[];
  /** Per oracle file, the broken tests to delete or weaken (missing ones need nothing). */
  hide: Map<string, HideEntry[]>;
  /** Tests that pass on O in the selected files (the test script's count on O). */
  passingOnOriginal: number;
}

/** Tests hidden at most: beyond this, the remaining failures stay visible (method §3.6 needs one hidden). */
const MAX_HIDDEN = 40;

/**
 * Pick the oracle test files: those where the bug makes tests fail on behaviour, all clean on
 * the original (a failing test on O rejects the artifact), topped up with the clean files that
 * have the most passing tests until at least `minPassing` tests pass on O. Null when the
 * repository's clean files cannot reach `minPassing`.
 */
export function selectTests(facts: RepoFacts, broken: readonly BrokenTest[], behavioural: readonly string[], minPassing: number): TestSelection | null {
  const clean = (file: string) => (facts.perFile.get(file)?.failed ?? 1) === 0 && (facts.perFile.get(file)?.passed ?? 0) > 0;
  const behaviouralSet = new Set(behavioural);
  const located = broken.flatMap((test) => {
    const location = locateTest(test.id, facts.suite, facts.testFiles);
    return location && clean(location.file) ? [{ test, location }] : [];
  });
  const files = [...new Set(located.filter((l) => behaviouralSet.has(l.test.id)).map((l) => l.location.file))].sort();
  if (files.length === 0) return null;
  let passing = files.reduce((sum, file) => sum + (facts.perFile.get(file)?.passed ?? 0), 0);
  const extras = [...facts.perFile.entries()]
    .filter(([file]) => clean(file) && !files.includes(file) && !located.some((l) => l.location.file === file))
    .sort((a, b) => b[1].passed - a[1].passed || a[0].localeCompare(b[0]));
  for (const [file, counts] of extras) {
    if (passing >= minPassing) break;
    files.push(file);
    passing += counts.passed;
  }
  if (passing < minPassing) return null;

  // Behavioural failures first, so the cap never leaves the bug's own tests unhidden.
  const ordered = [...located.filter((l) => l.test.exc !== 'missing')].sort(
    (a, b) => Number(behaviouralSet.has(b.test.id)) - Number(behaviouralSet.has(a.test.id)),
  );
  const hide = new Map<string, HideEntry[]>();
  for (const entry of ordered.slice(0, MAX_HIDDEN)) {
    if (!files.includes(entry.location.file)) continue;
    const list: HideEntry[] = hide.get(entry.location.file) ?? [];
    list.push(entry);
    hide.set(entry.location.file, list);
  }
  return { files, hide, passingOnOriginal: passing };
}
