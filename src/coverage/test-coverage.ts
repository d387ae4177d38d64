/** The context of lines that ran outside any test (imports at collection, class or session set-up). */
export const OUTSIDE_TESTS = '*';

/**
 * Which test files execute each line of the queried code files (trace_lines.py's `--query`
 * output): per file, per line, the test files that ran it, {@link OUTSIDE_TESTS} among
 * them when it also ran outside any test.
 */
export interface TestCoverage {
  /** Every test file the traced run ran (a file none of whose tests reached the code included). */
  testFiles: ReadonlySet<string>;
  lines: ReadonlyMap<string, ReadonlyMap<number, ReadonlySet<string>>>;
}

/** A coverage map, or why there is none (its user then runs the full suite). */
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

