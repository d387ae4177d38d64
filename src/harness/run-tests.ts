import { REPO_DIR, type Sandbox } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import { execWrapped } from '../workspace/exec-checked.js';
import { readParserOutput, type ParserVerdict } from './read-parser-output.js';
import { encodePrepareSteps, readPrepareFailure, type PrepareFailure, type PrepareStep } from './prepare-steps.js';
import { readGuardRecords } from './guard-report.js';
import { newGuardRun } from './guard-setup.js';
import { offersReportFifo } from './report-fifo.js';
import { GUARD_MAX_RECORDS, GUARD_RECORD_MAX_BYTES, readDriverOutput, TEST_DRIVER, type ParserOutput } from './test-driver.js';
import type { TestReport } from './test-report.js';

export { TEST_FILES } from './test-driver.js';

export interface RunTestsOptions {
  /** Contents of test_script.sh. */
  testScript: string;
  /** Contents of test_parser.py. */
  testParser: string;
  /** Limit for the test script, ms; its whole process tree is killed after it. */
  timeoutMs: number;
  /** Limit for the parser, ms (default 30 s). */
  parserTimeoutMs?: number;
  /** Cap on the stored log; head and tail are kept (default 256 KiB). */
  maxLogBytes?: number;
  /**
   * Feed the same log to the parser a second time, in the same exec (the validator's determinism
   * check). Done only on a real log: the script finished and printed something.
   */
  reparse?: boolean;
  /**
   * Run the script hardened, with the guard plugin (see TEST_DRIVER); default true. Every run of
   * the same artifact (validation's O and grading) must agree on this, or their guards differ.
   */
  guard?: boolean;
  /** Extra environment of the script (the validator's PYTEST_ADDOPTS for relevant-test selection). */
  env?: Record<string, string>;
}

/** A test run; `reparse` is the second parse of the same log when one was asked for and made. */
export type TestRun = TestReport & { reparse?: ParserVerdict };

/** A run after preparation steps: the tests ran, or a step failed and they did not. */
export type PreparedRun = { status: 'ran'; run: TestRun } | { status: 'prepare-failed'; failure: PrepareFailure };

const DEFAULT_MAX_LOG_BYTES = 256 * 1024;
const DEFAULT_PARSER_TIMEOUT_MS = 30_000;
/** A status map of 100k tests is a few MiB; more than this is not a status map. */
const MAX_PARSER_STDOUT_BYTES = 32 * 1024 * 1024;
const PARSER_STDERR_TAIL_BYTES = 4096;
/** Slack for the driver's own work around the two limits before the sandbox kills it. */
const DRIVER_GRACE_MS = 30_000;

const seconds = (ms: number): string => String(Math.max(1, Math.ceil(ms / 1000)));

/**
 * Run test_script.sh, then test_parser.py on its log, inside the sandbox, in one exec (see
 * {@link TEST_DRIVER}); the host only receives the capped log and the parser's output, so a huge
 * log costs the host nothing. The parser runs even when the script timed out (on the partial log).
 * Throws EngineError only when the sandbox fails; every failure of the script or parser is data.
 */
export async function runTests(sandbox: Sandbox, options: RunTestsOptions): Promise<TestRun> {
  const prepared = await runPreparedTests(sandbox, [], options);
  if (prepared.status !== 'ran') throw new EngineError('internal', 'the test driver reported a preparation step although none was given');
  return prepared.run;
}

/**
 * {@link runTests} on the state `steps` bring the sandbox to, in the same single exec: the steps
 * run first, in order, and the first that fails ends the exec before any test runs.
 */
export async function runPreparedTests(sandbox: Sandbox, steps: readonly PrepareStep[], options: RunTestsOptions): Promise<PreparedRun> {
  const parserTimeoutMs = options.parserTimeoutMs ?? DEFAULT_PARSER_TIMEOUT_MS;
  const half = Math.floor((options.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES) / 2);
  const guard = options.guard === false ? undefined : await newGuardRun();
  const args = [seconds(options.timeoutMs), seconds(parserTimeoutMs), MAX_PARSER_STDOUT_BYTES, half, PARSER_STDERR_TAIL_BYTES, options.reparse ? 1 : 0, steps.length, guard ? 1 : 0, offersReportFifo(options.testScript) ? 1 : 0].join(' ');
  const stdin = `${Buffer.from(options.testScript).toString('base64')}\n${Buffer.from(options.testParser).toString('base64')}\n${guard?.stdinLine ?? ''}${encodePrepareSteps(steps)}`;
  const oomBefore = (await sandbox.oomKills?.()) ?? null;
  // The driver is the exec's own shell (its arguments set in it): a `bash -c` of its own was one more start per run.
  const result = await execWrapped(sandbox, 'running the tests', `set -- ${args}\n${TEST_DRIVER}`, {
    cwd: REPO_DIR,
    ...(options.env ? { env: options.env } : {}),
    stdin,
    // The driver's exit code says nothing: everything the run reports is in what it printed.
    skipExitCode: true,
    timeoutMs: options.timeoutMs + (options.reparse ? 2 : 1) * parserTimeoutMs + DRIVER_GRACE_MS,
    maxOutputBytes: Math.ceil(((2 * MAX_PARSER_STDOUT_BYTES + 2 * half + 2 * PARSER_STDERR_TAIL_BYTES + (guard ? GUARD_MAX_RECORDS * GUARD_RECORD_MAX_BYTES : 0)) * 4) / 3) + 4096,
  });
  await assertNoOomKill(sandbox, oomBefore);
  const failure = result.timedOut ? undefined : readPrepareFailure(result.output);
  if (failure) return { status: 'prepare-failed', failure };
  const out = result.timedOut ? undefined : readDriverOutput(result.output);
  if (!out) {
    const why = result.timedOut ? `timed out after ${result.durationMs} ms` : `unexpected output ${JSON.stringify(result.output.slice(0, 300))}`;
    throw new EngineError('sandbox-failed', `running the tests: the test driver ${why}`, { retryable: true });
  }
  const verdict = verdictOf({ exit: out.parserExit, timedOut: out.parserTimedOut, ms: out.parserMs, stdoutBytes: out.parserStdoutBytes, stdout: out.parserStdout, stderr: out.parserStderr }, parserTimeoutMs);
  const omitted = out.logBytes - Buffer.byteLength(out.logHead) - Buffer.byteLength(out.logTail);
  const log = out.logTail === '' ? out.logHead : `${out.logHead}\n\n[ssr: ${omitted} bytes of the ${out.logBytes}-byte log omitted here]\n\n${out.logTail}`;
  const run: TestRun = {
    statuses: verdict.status === 'ok' ? verdict.statuses : {},
    timedOut: out.scriptTimedOut,
    exitCode: out.scriptTimedOut ? null : out.scriptExit,
    durationMs: out.scriptMs,
    parserDurationMs: out.parserMs,
    logBytes: out.logBytes,
    log,
    ...(verdict.status === 'failed' ? { parserFailure: verdict.failure } : {}),
    ...(out.reparse ? { reparse: verdictOf(out.reparse, parserTimeoutMs) } : {}),
    ...(guard ? { guard: readGuardRecords(out.guard?.records ?? [], out.guard?.total ?? 0, guard.key) } : {}),
    ...(out.material ? { material: out.material } : {}),
  };
  return { status: 'ran', run };
}

/**
 * A run during which the engine's memory cgroup killed a process says nothing about the code: it
 * is infrastructure (discarded, never a reward). Only the kernel's count on the host decides this;
 * an exit status of 137 alone is data, or a Solver could `kill -9` its own failing run to dodge −1.
 */
async function assertNoOomKill(sandbox: Sandbox, before: number | null): Promise<void> {
  if (before === null) return;
  const after = await sandbox.oomKills!();
  if (after === null || after <= before) return;
  throw new EngineError('sandbox-oom', `running the tests: the engine killed ${after - before} process(es) of sandbox ${sandbox.id} for memory: an infrastructure outcome, not a verdict on the code`);
}

function verdictOf(run: ParserOutput, timeoutMs: number): ParserVerdict {
  return readParserOutput({
    exitCode: run.timedOut ? null : run.exit,
    timedOut: run.timedOut,
    durationMs: run.ms,
    timeoutMs,
    stdout: run.stdout ?? `(the parser printed ${run.stdoutBytes} bytes, more than the ${MAX_PARSER_STDOUT_BYTES}-byte cap)`,
    stderr: run.stderr,
  });
}
