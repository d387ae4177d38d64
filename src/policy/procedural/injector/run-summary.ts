/** One test that passed on the original repo and does not pass now, as summarize_run.py reports it. */
export interface BrokenTest {
  id: string;
  /** Exception class (`AssertionError`), `missing` (did not run) or `collection` (its module failed to import). */
  exc: string;
  /** Line of the test file where it failed (pytest), when known. */
  line: number | null;
}

/** What summarize_run.py printed about one run. */
export interface RunSummary {
  passed: number;
  failed: number;
  /** Per test file (pytest) or module (unittest): passing and failing counts. */
  groups: Map<string, { passed: number; failed: number }>;
  /** Without a baseline: the tests that did not pass, with their exception class. */
  failures: { id: string; exc: string }[];
  /** With a baseline: the tests that passed there and not here. */
  broken: BrokenTest[];
  /** Lines summarize_run.py left out (its list was cut). */
  more: number;
  /** Per test file, s its tests took (`@@dur`: a pytest run given --durations=0); empty when not timed or not all read. */
  durations: Map<string, number>;
  /** Lines of the form `@@name rest` the summary did not recognise: markers the command printed itself. */
  markers: Map<string, string>;
}

/**
 * Read summarize_run.py's `@@` lines out of a command's output; null when it printed no `@@run`
 * line (the run or the parser failed). Other `@@name value` lines are kept as markers.
 */
export function parseRunSummary(text: string): RunSummary | null {
  const summary: RunSummary = { passed: 0, failed: 0, groups: new Map(), failures: [], broken: [], more: 0, durations: new Map(), markers: new Map() };
  let sawRun = false;
  for (const line of text.split('\n')) {
    const match = /^@@(\w[\w-]*) ?(.*)$/.exec(line.trimEnd());
    if (!match) continue;
    const [, name, rest = ''] = match;
    if (name === 'run') {
      sawRun = true;
      summary.passed = count(rest, 'passed');
      summary.failed = count(rest, 'failed');
    } else if (name === 'group') {
      const key = rest.replace(/ passed=\d+ failed=\d+$/, '');
      summary.groups.set(key, { passed: count(rest, 'passed'), failed: count(rest, 'failed') });
    } else if (name === 'fail') {
      const [id = '', exc = 'Error'] = rest.split('\t');
      summary.failures.push({ id, exc });
    } else if (name === 'broken') {
      const [id = '', exc = 'Error', line = '-'] = rest.split('\t');
      summary.broken.push({ id, exc, line: /^\d+$/.test(line) ? Number(line) : null });
    } else if (name === 'dur') {
      const match = /^(.+) (\d+(?:\.\d+)?)$/.exec(rest);
      if (match) summary.durations.set(match[1]!, Number(match[2]));
    } else if (name === 'more') {
      summary.more = Number(rest) || 0;
    } else if (name !== undefined) summary.markers.set(name, rest);
  }
  // Durations cut short (an output's middle left out) would make some files look instant: none then.
  if (summary.durations.size !== Number(summary.markers.get('durations') ?? 0)) summary.durations.clear();
  return sawRun ? summary : null;
}

function count(text: string, key: string): number {
  return Number(new RegExp(`\\b${key}=(\\d+)`).exec(text)?.[1] ?? 0);
}

/** Exception classes that mean the code no longer imports or runs at all, not that it misbehaves (method §7). */
const TRIVIAL = new Set(['collection', 'missing', 'ImportError', 'ModuleNotFoundError', 'NameError', 'UnboundLocalError', 'SyntaxError', 'IndentationError']);
/** The same for JS/TS: a name that no longer exists, code that no longer parses (an import of a missing export is a SyntaxError). */
const TRIVIAL_JS = new Set(['collection', 'missing', 'ReferenceError', 'SyntaxError']);

/** Whether a broken test fails on behaviour (an assertion, a wrong value raised) rather than on a broken import. */
export function failsOnBehaviour(test: BrokenTest, language: 'python' | 'javascript' = 'python'): boolean {
  return !(language === 'javascript' ? TRIVIAL_JS : TRIVIAL).has(test.exc);
}

/** Whether a run was killed at its limit (`@@exit` 124 from timeout, 137 from its kill after the grace). */
export function timedOut(summary: RunSummary | null): boolean {
  const exit = summary?.markers.get('exit');
  return exit === '124' || exit === '137';
}
