import type { WeakeningGranularity } from '../../../validator/bug-quality.js';
import { firstRoundTargets, granularityOf } from './weaken-targets.js';
import { bash, type Steps } from '../program.js';
import { applyEditsCommand, BUGGY_JSON, runCommand } from './injector-commands.js';
import { readTextFiles } from './read-text-files.js';
import type { RepoFacts } from './repo-facts.js';
import { parseRunSummary } from './run-summary.js';
import type { TestSelection } from './select-tests.js';
import { planWeakening, type WeakenPlan, type WeakenTarget } from './weaken-plan.js';
import { planDoctestWeakening } from './doctest-weaken-plan.js';
import { planJsWeakening } from './weaken-plan-js.js';
import { isDoctestHost } from '../../../code/doctest-diff-rules.js';
import { languageOfPath } from '../../../code/source-language.js';
import type { TestSuite } from './test-suite.js';

/** What the weakening did, for the summary and metadata. */
export interface Weakening {
  deletedTests: string[];
  deletedAssertions: string[];
  /** Tests of F that no longer fail on W. */
  hidden: number;
  /** Tests of F still failing on W (allowed: method §3.6 needs at least one hidden). */
  stillFailing: string[];
  /** What the weakening deleted in the end: single assertions, whole tests, or both. */
  granularity: WeakeningGranularity;
}

export type WeakenOutcome = { status: 'ok'; weakening: Weakening } | { status: 'failed'; reason: string };

/**
 * Hide the bug in the oracle test files with the smallest concealment first (issue 14): a test
 * that fails at one assert statement loses only that statement; a test whose failure is no
 * assertion of its own (an error in its setup, several failing lines, its only assert) is deleted
 * whole. Never commenting anything out; the first round's deletions (whole-line edits, as `edit`
 * makes them) and the run of the oracle files on W, compared with B, are one command. Tests still
 * failing after losing an assertion (a later assertion fails too) are deleted whole in a second
 * round with no run of its own (issue 26: one oracle run per bug, not two): a deleted test cannot
 * fail, so which tests still fail follows from the first run; validation's run of W judges the
 * result as it judges every weakening. Fails when W breaks a test that passed on B. `known`: files
 * already read, as they are on B (a doctest host read to pick the bug), so they are not read again.
 */
export async function* weakenTests(facts: RepoFacts, selection: TestSelection, behavioural: readonly string[], known: ReadonlyMap<string, string> = new Map()): Steps<WeakenOutcome> {
  const deletedTests: string[] = [];
  const deletedAssertions: string[] = [];
  // Each file is read once (none that `known` holds as it is on B): round two plans on the text round one left.
  const texts = new Map<string, string>(known);
  const first = yield* planRound(facts, new Map([...selection.hide].map(([file, entries]) => [file, firstRoundTargets(entries)])), texts);
  if (first.status === 'failed') return first;
  deletedTests.push(...first.deletedTests);
  deletedAssertions.push(...first.deletedAssertions);
  // The first round's deletions and the run of the oracle files on W in one command.
  const run = runCommand(facts.suite, 'w', { files: selection.files, against: BUGGY_JSON, fails: true, limit: 80, timeoutS: facts.runLimitS });
  const observation = yield bash(`${applyEditsCommand(first.edits, 'w0')} && {\n${run}\n}`, 'Delete the failing test code, then run the oracle test files on the weakened tests and compare with the buggy run.');
  const failedEdit = /^@@edit-failed (.*)$/m.exec(observation.text);
  if (failedEdit) return { status: 'failed', reason: `an edit failed: ${failedEdit[1]}` };
  const weakened = parseRunSummary(observation.text);
  if (!weakened) return { status: 'failed', reason: 'the run of the weakened tests failed' };
  const newlyFailing = weakened.broken.filter((t) => t.exc !== 'missing');
  if (newlyFailing.length > 0) return { status: 'failed', reason: `the weakening breaks ${newlyFailing[0]!.id}` };
  const failing = new Set(weakened.failures.map((f) => f.id));
  const retry = failing.size > 0 && behavioural.some((id) => failing.has(id)) ? secondRoundTargets(selection, failing) : new Map<string, WeakenTarget[]>();
  if (retry.size > 0) {
    const second = yield* planRound(facts, retry, texts);
    if (second.status === 'failed') return second;
    deletedTests.push(...second.deletedTests);
    deletedAssertions.push(...second.deletedAssertions);
    const applied = yield bash(applyEditsCommand(second.edits, 'w1'), 'Delete whole the tests that still fail after losing an assertion.');
    const failed = /^@@edit-failed (.*)$/m.exec(applied.text);
    if (failed || !/^@@edited /m.test(applied.text)) return { status: 'failed', reason: `an edit failed: ${failed?.[1] ?? 'no answer from apply_edits.py'}` };
    for (const id of deletedIds(selection, retry, second.unresolved)) failing.delete(id);
  }
  const stillFailing = behavioural.filter((id) => failing.has(id));
  const hidden = behavioural.length - stillFailing.length;
  if (hidden === 0) return { status: 'failed', reason: 'the weakening hides none of the failing tests' };
  return { status: 'ok', weakening: { deletedTests, deletedAssertions, hidden, stillFailing, granularity: granularityOf(deletedTests, deletedAssertions) } };
}

type Round = { status: 'ok'; edits: Array<{ path: string; search: string; replace: string }>; deletedTests: string[]; deletedAssertions: string[]; unresolved: Map<string, string[]> } | { status: 'failed'; reason: string };

// One round's edits, planned on `texts` (files not there yet are read, small ones several to a
// call), which are left as the round makes them.
async function* planRound(facts: RepoFacts, round: ReadonlyMap<string, WeakenTarget[]>, texts: Map<string, string>): Steps<Round> {
  const out: Round = { status: 'ok', edits: [], deletedTests: [], deletedAssertions: [], unresolved: new Map() };
  const unread = [...round.keys()].filter((file) => !texts.has(file)).map((path) => ({ path, ...facts.sourceFiles.get(path) }));
  const read = yield* readTextFiles(unread, (paths) => `Read ${paths.join(', ')} to find the tests that now fail.`);
  for (const [file, targets] of round) {
    const source = texts.get(file) ?? read.get(file) ?? null;
    if (source === null) return { status: 'failed', reason: `could not read ${file}` };
    // A code file's tests are its doctest examples: delete examples, never code.
    const plan = planFor(facts.suite, file, source, targets);
    out.edits.push(...plan.edits.map((step) => ({ path: file, ...step })));
    texts.set(file, plan.after);
    out.deletedTests.push(...plan.deletedTests.map((name) => `${file}::${name}`));
    out.deletedAssertions.push(...plan.deletedAssertions.map((name) => `${file}::${name}`));
    out.unresolved.set(file, plan.unresolved);
  }
  return out;
}

/**
 * The tests the second round removed: every hidden test of a file whose test function it deleted
 * whole (all its parameters go with it), none it could not find. They no longer run on W, so they
 * no longer fail there.
 */
export function deletedIds(selection: TestSelection, retry: ReadonlyMap<string, readonly WeakenTarget[]>, unresolved: ReadonlyMap<string, readonly string[]>): string[] {
  const ids: string[] = [];
  for (const [file, targets] of retry) {
    const missed = new Set(unresolved.get(file) ?? []);
    const names = new Set(targets.map((t) => t.qualifiedName).filter((name) => !missed.has(name)));
    for (const entry of selection.hide.get(file) ?? []) if (names.has(entry.location.qualifiedName)) ids.push(entry.test.id);
  }
  return ids;
}

// Tests that still fail on W after the first round: delete them whole.
function secondRoundTargets(selection: TestSelection, failing: ReadonlySet<string>): Map<string, WeakenTarget[]> {
  const out = new Map<string, WeakenTarget[]>();
  for (const [file, entries] of selection.hide) {
    const names = [...new Set(entries.filter((e) => failing.has(e.test.id)).map((e) => e.location.qualifiedName))];
    if (names.length > 0) out.set(file, names.map((qualifiedName) => ({ qualifiedName })));
  }
  return out;
}

// Python tests by qualified name (a doctest host's by its examples); JS tests by their titles
// (Mocha's full title joins them with spaces; `.each` titles formatted as Jest or Vitest does;
// tape prints a flat `# name` per test, nested or not, so its ids name the innermost title alone).
function planFor(suite: TestSuite, file: string, source: string, targets: readonly WeakenTarget[]): WeakenPlan {
  if (suite.kind === 'js') return planJsWeakening(source, languageOfPath(file) ?? 'javascript', targets, suite.runner === 'mocha' ? ' ' : ' > ', suite.runner === 'jest' ? 'jest' : 'vitest', suite.runner === 'tape');
  return isDoctestHost(file) ? planDoctestWeakening(source, file, targets) : planWeakening(source, targets);
}
