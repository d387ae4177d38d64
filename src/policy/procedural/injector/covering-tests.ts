/** The context of lines that ran outside any test (imports at collection, class or session set-up). */
export const OUTSIDE_TESTS = '*';

/**
 * Which test files execute each line of the code files the Injector read (trace_lines.py's
 * `--query` output): per file, per line, the test files that ran it, {@link OUTSIDE_TESTS} among
 * them when it also ran outside any test.
 */
export interface TestCoverage {
  /** Every test file the traced run ran (a file none of whose tests reached the code included). */
  testFiles: ReadonlySet<string>;
  lines: ReadonlyMap<string, ReadonlyMap<number, ReadonlySet<string>>>;
}

/** A coverage map, or why there is none (the Injector then runs every candidate on the full suite). */
export type CoverageRead = { status: 'ok'; coverage: TestCoverage } | { status: 'unusable'; reason: string };

/**
 * Read `@@tfile` / `@@tcov` / `@@trace` lines. Unusable when the traced run did not finish with the
 * tracer intact (a crash or time-out under tracing, a test that took the tracer over): a partial
 * map would leave out tests that do execute a line, and a restricted run would miss their failures.
 */
export function parseTestCoverage(text: string): CoverageRead {
  const trace = /^@@trace (ok|disturbed) ?(.*)$/m.exec(text);
  if (!trace) return { status: 'unusable', reason: 'the traced run did not finish (a crash or a time-out under tracing)' };
  if (trace[1] === 'disturbed') return { status: 'unusable', reason: `a test replaced the tracer (${trace[2]}), so the map is partial` };
  const names = new Map<string, string>();
  const lines = new Map<string, Map<number, Set<string>>>();
  let read = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const file = /^@@tfile (\d+) (.+)$/.exec(line);
    if (file) {
      names.set(file[1]!, file[2]!);
      read += 1;
    }
    const cov = /^@@tcov (.+) ([\d,-]+) ([\d,*]+)$/.exec(line);
    if (!cov) continue;
    read += 1;
    const contexts = new Set(cov[3]!.split(',').map((key) => (key === OUTSIDE_TESTS ? OUTSIDE_TESTS : (names.get(key) ?? OUTSIDE_TESTS))));
    const perLine = lines.get(cov[1]!) ?? new Map<number, Set<string>>();
    for (const part of cov[2]!.split(',')) {
      const [from, to = from] = part.split('-').map(Number);
      if (from === undefined || to === undefined || !Number.isFinite(from) || !Number.isFinite(to)) continue;
      for (let n = from; n <= to; n++) perLine.set(n, new Set([...(perLine.get(n) ?? []), ...contexts]));
    }
    lines.set(cov[1]!, perLine);
  }
  // An output cut short (the tool's cap) loses lines: the count the query printed says so.
  const printed = /^@@tquery (\d+)$/m.exec(text);
  if (!printed || Number(printed[1]) !== read) return { status: 'unusable', reason: `the coverage map came back cut short (${read} of ${printed?.[1] ?? '?'} lines)` };
  return { status: 'ok', coverage: { testFiles: new Set(names.values()), lines } };
}

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
