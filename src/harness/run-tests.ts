import { REPO_DIR, type Sandbox } from '../sandbox/sandbox.js';
import { execWrapped, writeInfra } from '../workspace/exec-checked.js';
import { readCappedLog, statSizes } from './read-sandbox-file.js';
import { DEFAULT_PARSER_TIMEOUT_MS, runParser, TEST_FILES } from './run-parser.js';
import type { TestReport } from './test-report.js';

export { TEST_FILES } from './run-parser.js';

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
}

const DEFAULT_MAX_LOG_BYTES = 256 * 1024;

/**
 * Run test_script.sh, then test_parser.py on its log, inside the sandbox; the host only receives
 * the capped log and the parser's output. The script's output goes to a file in the sandbox, so a
 * huge log costs the host nothing. The parser runs even when the script timed out (on the partial
 * log). Throws EngineError only when the sandbox fails; every failure of the script or the parser
 * is in the report.
 */
export async function runTests(sandbox: Sandbox, options: RunTestsOptions): Promise<TestReport> {
  const f = TEST_FILES;
  await writeInfra(sandbox, f.script, options.testScript);
  await writeInfra(sandbox, f.parser, options.testParser);
  const script = await execWrapped(sandbox, 'running the test script', `rm -f ${f.log} ${f.parserOut} ${f.parserErr}; bash ${f.script} > ${f.log} 2>&1 < /dev/null`, {
    cwd: REPO_DIR,
    timeoutMs: options.timeoutMs,
  });
  const parser = await runParser(sandbox, options.parserTimeoutMs ?? DEFAULT_PARSER_TIMEOUT_MS);
  const verdict = parser.verdict;
  const [logBytes = 0] = await statSizes(sandbox, [f.log]);
  return {
    statuses: verdict.status === 'ok' ? verdict.statuses : {},
    timedOut: script.timedOut,
    exitCode: script.exitCode,
    durationMs: script.durationMs,
    parserDurationMs: parser.durationMs,
    logBytes,
    log: await readCappedLog(sandbox, f.log, logBytes, options.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES),
    ...(verdict.status === 'failed' ? { parserFailure: verdict.failure } : {}),
  };
}
