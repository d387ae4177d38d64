import { z } from 'zod';
import type { StatusMap } from '../../harness/test-report.js';
import type { TestRunner } from '../../config/repos-schema.js';
import { missingModuleHint, type MissingModule } from './missing-module.js';
import { noNetworkHint } from './network-failure.js';

/** A clean suite slower than this share of the test time limit is too near it to judge patches. */
export const NEAR_LIMIT_SHARE = 0.5;
/** The raised limit is this many times the slower clean run, so it sits at a third of it. */
export const RAISE_FACTOR = 3;
/** A repo whose raised limit would pass this is refused: a run that long is not a usable oracle. */
export const MAX_RAISED_LIMIT_MS = 30 * 60 * 1000;

/** One run of the clean suite on O, as the gate needs it. */
export interface CleanRun {
  statuses: StatusMap;
  durationMs: number;
  timedOut: boolean;
  /** Set when the parser could not read the log. */
  parserFailure?: string;
  /** Exit code of the test script (null when killed); pytest's 5 means it collected no tests. */
  exitCode?: number | null;
  /** The last line of the run's log, quoted in a refusal. */
  logTail?: string;
  /** The engine killed a process of the run for memory. */
  killedForMemory?: boolean;
  /** A sign in the log that a test tried to reach the network (network-failure.ts), quoted in a refusal. */
  networkFailure?: string;
  /** A module the log says could not be imported (missing-module.ts), named in a refusal with the line that installs it. */
  missingModule?: MissingModule;
  /** Test material the clean suite itself changed (test-material.ts): `changed <path>`, `added <path>`, … */
  materialChanges?: string[];
  /** What the guard reported on the clean suite (the repo's own doing: later runs may repeat exactly these, see toleratedTampering). */
  guardTampered?: string[];
  /** How the test material was protected (test-material.ts): anything but `read-only` means the tests ran as the sandbox's only user. */
  materialMode?: 'read-only' | 'hash-only' | 'unavailable';
}

/** What the gate needs of the repo's settings beyond the time limit. */
export interface GateSettings {
  /** thresholds.min_passing_tests: fewer clean passing tests refuse the repo. */
  minPassingTests: number;
  /** limits.memory_mb, named in a refusal for memory. */
  memoryMb: number;
  /** test.runner: which runner the hints in a refusal speak of (pytest when absent). */
  runner?: TestRunner;
}
const DEFAULT_SETTINGS: GateSettings = { minPassingTests: 1, memoryMb: 2048 };
/** pytest's exit status when it collected no test. */
const PYTEST_NO_TESTS = 5;
const PYTEST_HINT =
  'ssr runs `python3 -m pytest` in /repo (it also runs unittest TestCases, and doctests with --doctest-modules): ' +
  'add a pytest.ini to the repo (testpaths; python_files = test*.py for unittest-style names; addopts = --doctest-modules), or write it from image.setup in repos.yaml';

/** How to make the runner see the repo's tests, for a refusal. */
function runnerHint(runner: TestRunner = 'pytest'): string {
  if (runner === 'pytest') return PYTEST_HINT;
  return (
    `ssr runs the repo's ${runner} suite with src/harness/defaults/js/ (its script and parser for ${runner}) in /repo: ` +
    'check that test.runner in repos.yaml names the runner the repo really uses and that `npm: ci` in image.setup installs it'
  );
}

/** What the golden gate decided for one repo; `golden-gate.json` of a run dir holds one per repo. */
export const goldenGateSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('passed'),
    repo: z.string(),
    commit: z.string(),
    image: z.string(),
    cleanMs: z.tuple([z.number(), z.number()]).describe('wall time of the two clean runs'),
    tests: z.number().int().nonnegative().describe('tests seen in either run'),
    quarantined: z.array(z.string()).describe('tests whose outcome differed between the runs: left out of every oracle set'),
    testTimeoutMs: z.number().int().positive().describe('the limit every test run of the repo uses'),
    raisedFromMs: z.number().int().positive().nullable().describe('the configured limit when the gate raised it, else null'),
    guardTripped: z.array(z.string()).optional().describe("what the guard reported on the clean suite: the repo's own doing, which later runs may repeat (they are held to the rest of the guard)"),
    oneUser: z
      .literal(true)
      .optional()
      .describe('the tests ran as the sandbox\'s only user (bubblewrap, a non-root pod): code under test can forge what grading reads (docs/grading.md, "One user only")'),
  }),
  z.object({ status: z.literal('refused'), repo: z.string(), commit: z.string(), image: z.string(), reason: z.string() }),
]);
export type GoldenGate = z.infer<typeof goldenGateSchema>;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * Judge the two clean runs of a repo (method §3's determinism, once per image, before any episode):
 * tests whose outcome differs between them (missing in one counts) are quarantined; a suite that
 * timed out or gave no statuses refuses the repo; one slower than {@link NEAR_LIMIT_SHARE} of the
 * limit gets {@link RAISE_FACTOR}× its time as the new limit — or is refused when that passes
 * {@link MAX_RAISED_LIMIT_MS}. Pure.
 */
export function judgeGoldenGate(
  runs: readonly [CleanRun, CleanRun],
  limitMs: number,
  id: Pick<GoldenGate, 'repo' | 'commit' | 'image'>,
  settings: GateSettings = DEFAULT_SETTINGS,
): GoldenGate {
  const refuse = (reason: string): GoldenGate => ({ status: 'refused', ...id, reason: `repo ${id.repo}: ${reason}` });
  const tail = (run: CleanRun): string => (run.logTail ? ` (its log ends: "${run.logTail.slice(0, 200)}")` : '');
  const offline = (run: CleanRun): string => (run.networkFailure ? noNetworkHint(run.networkFailure) : '');
  const missing = (run: CleanRun): string => (run.missingModule ? missingModuleHint(run.missingModule) : '');
  if (runs.some((run) => run.killedForMemory)) {
    return refuse(`the clean test suite was killed for memory at its ${settings.memoryMb} MB limit: raise limits.memory_mb in repos.yaml`);
  }
  const empty = (settings.runner ?? 'pytest') !== 'pytest' ? undefined : runs.find((run) => run.exitCode === PYTEST_NO_TESTS && Object.keys(run.statuses).length === 0);
  if (empty) return refuse(`the clean test suite has no tests: pytest collected none${tail(empty)}; ${runnerHint(settings.runner)}`);
  if (runs.some((run) => run.timedOut)) {
    return refuse(`the clean test suite timed out at its ${seconds(limitMs)} limit: raise limits.test_timeout_s in repos.yaml (or pass --test-timeout)`);
  }
  const written = [...new Set(runs.flatMap((run) => run.materialChanges ?? []))].sort();
  if (written.length > 0) {
    return refuse(
      `the clean test suite writes its own test material (${written.slice(0, 5).join(', ')}), which every graded run must leave as it is (docs/grading.md): ` +
        'make the tests write into a temporary folder (tmp_path) or a data file, not a test or runner config file',
    );
  }
  const broken = runs.find((run) => run.parserFailure !== undefined || Object.keys(run.statuses).length === 0);
  if (broken) return refuse(`the clean test suite gave no test statuses (${broken.parserFailure ?? 'the parser printed an empty map'})${tail(broken)}${missing(broken)}${offline(broken)}: ${runnerHint(settings.runner)}`);
  const [a, b] = runs;
  const ids = [...new Set([...Object.keys(a.statuses), ...Object.keys(b.statuses)])].sort();
  const quarantined = ids.filter((test) => a.statuses[test] !== b.statuses[test]);
  const passing = ids.filter((test) => a.statuses[test] === 'passed' && b.statuses[test] === 'passed').length;
  if (passing < settings.minPassingTests) {
    return refuse(
      `the clean test suite fails: ${passing} of ${ids.length} tests pass, fewer than thresholds.min_passing_tests (${settings.minPassingTests})${tail(a)}${missing(a.missingModule ? a : b)}${offline(a.networkFailure ? a : b)}: ` +
        'install what the tests need (image.packages, image.setup in repos.yaml) or select the tests that work (a pytest.ini), or lower thresholds.min_passing_tests',
    );
  }
  const slowest = Math.max(a.durationMs, b.durationMs);
  let testTimeoutMs = limitMs;
  let raisedFromMs: number | null = null;
  if (slowest > NEAR_LIMIT_SHARE * limitMs) {
    testTimeoutMs = Math.ceil((RAISE_FACTOR * slowest) / 1000) * 1000;
    raisedFromMs = limitMs;
    if (testTimeoutMs > MAX_RAISED_LIMIT_MS) {
      return refuse(`the clean test suite takes ${seconds(slowest)}, more than half its ${seconds(limitMs)} limit, and the ${seconds(testTimeoutMs)} it would need passes the ${seconds(MAX_RAISED_LIMIT_MS)} cap: select fewer tests for this repo`);
    }
  }
  const tripped = [...new Set(runs.flatMap((run) => run.guardTampered ?? []))].sort();
  const oneUser = runs.some((run) => run.materialMode !== undefined && run.materialMode !== 'read-only');
  return {
    status: 'passed', ...id, cleanMs: [a.durationMs, b.durationMs], tests: ids.length, quarantined, testTimeoutMs, raisedFromMs,
    ...(tripped.length > 0 ? { guardTripped: tripped } : {}), ...(oneUser ? { oneUser: true as const } : {}),
  };
}

/** One line about a gate's verdict, for progress output and the run report. */
export function describeGoldenGate(gate: GoldenGate): string {
  if (gate.status === 'refused') return `golden gate refused ${gate.reason}`;
  const raised = gate.raisedFromMs === null ? '' : `; the clean suite is near the ${seconds(gate.raisedFromMs)} limit, so it is raised to ${seconds(gate.testTimeoutMs)}`;
  const flaky = gate.quarantined.length === 0 ? 'no flaky test' : `${gate.quarantined.length} flaky test(s) quarantined from the oracle sets: ${gate.quarantined.slice(0, 10).join(', ')}${gate.quarantined.length > 10 ? ', …' : ''}`;
  const tripped = gate.guardTripped?.length ? `; the clean suite trips the guard (${gate.guardTripped.slice(0, 3).join(', ')}): those exact reports are tolerated, the rest of the guard holds` : '';
  const oneUser = gate.oneUser
    ? '; WARNING: the tests run as the sandbox\'s only user, so code under test can forge a +1 (docs/grading.md, "One user only"): train on Docker or a root pod'
    : '';
  return `golden gate ${gate.repo}: clean suite ${seconds(gate.cleanMs[0])} / ${seconds(gate.cleanMs[1])}, ${gate.tests} tests, ${flaky}${raised}${tripped}${oneUser}`;
}
