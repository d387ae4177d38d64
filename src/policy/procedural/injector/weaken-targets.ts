import type { WeakeningGranularity } from '../../../validator/bug-quality.js';
import type { HideEntry } from './select-tests.js';
import type { WeakenTarget } from './weaken-plan.js';

/**
 * The first round's targets, smallest concealment first (issue 14): one per failing test
 * function; a test whose every failure is at one line loses only that line's assertion
 * (planWeakening deletes the whole test instead when the line is no assert of its own, or its only
 * one); a test failing at several lines, or at none known, is deleted whole.
 */
export function firstRoundTargets(entries: readonly HideEntry[]): WeakenTarget[] {
  const byName = new Map<string, (number | null)[]>();
  for (const { test, location } of entries) {
    byName.set(location.qualifiedName, [...(byName.get(location.qualifiedName) ?? []), test.line]);
  }
  return [...byName.entries()].map(([qualifiedName, lines]) => {
    const line = lines[0];
    const oneLine = line !== null && line !== undefined && lines.every((l) => l === line);
    return oneLine ? { qualifiedName, assertLine: line } : { qualifiedName };
  });
}

/**
 * What a weakening deleted in the end, from its lists (`file::Test.name` and `file::Test.name:line`):
 * a test deleted whole in round two after losing an assertion in round one counts as a test.
 */
export function granularityOf(deletedTests: readonly string[], deletedAssertions: readonly string[]): WeakeningGranularity {
  const wholeTests = new Set(deletedTests);
  const assertions = deletedAssertions.filter((entry) => !wholeTests.has(entry.slice(0, entry.lastIndexOf(':'))));
  if (assertions.length > 0 && deletedTests.length > 0) return 'mixed';
  return assertions.length > 0 ? 'assertion' : 'test';
}
