import { OUTSIDE_TESTS, type TestCoverage } from '../../../coverage/test-coverage.js';

// The map's types and parser are shared with the validator (src/coverage).
export { OUTSIDE_TESTS, parseTestCoverage, type CoverageRead, type TestCoverage } from '../../../coverage/test-coverage.js';

/** The test files a candidate runs against: only those, or the whole suite and why. */
export type CandidateTests = { status: 'restricted'; files: string[] } | { status: 'full'; reason: string };

/**
 * The test files that execute lines `from`..`to` of `file` (1-based, inclusive): a change there
 * can only alter what those tests do. The whole suite when that cannot be said: no map, a file
 * or range the map does not cover (a line no test ran, or a map cut short), a line that also ran
 * outside any test (an import-time effect reaches every importer), or no test file left out.
 */
export function coveringTests(coverage: TestCoverage | null, file: string, from: number | undefined, to: number | undefined): CandidateTests {
  if (!coverage) return { status: 'full', reason: 'no per-test coverage' };
  if (from === undefined) return { status: 'full', reason: 'the change has no known lines' };
  const perLine = coverage.lines.get(file);
  if (!perLine) return { status: 'full', reason: `no per-test coverage of ${file}` };
  const files = new Set<string>();
  let covered = false;
  for (let line = from; line <= (to ?? from); line++) {
    const contexts = perLine.get(line);
    if (!contexts) continue;
    if (contexts.has(OUTSIDE_TESTS)) return { status: 'full', reason: `${file}:${line} runs outside any test` };
    covered = true;
    for (const context of contexts) files.add(context);
  }
  if (!covered) return { status: 'full', reason: `no test executes ${file}:${from}-${to ?? from}` };
  if (files.size >= coverage.testFiles.size) return { status: 'full', reason: 'every test file executes the change' };
  return { status: 'restricted', files: [...files].sort() };
}

/** The union of several candidates' test files (a multi-file bug's run); full when any of them is. */
export function unionOfTests(list: readonly CandidateTests[]): CandidateTests {
  const full = list.find((tests) => tests.status === 'full');
  if (full) return full;
  return { status: 'restricted', files: [...new Set(list.flatMap((tests) => (tests.status === 'restricted' ? tests.files : [])))].sort() };
}
