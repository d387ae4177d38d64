import { REPO_DIR, SCRATCH_DIR, type Sandbox } from '../sandbox/sandbox.js';
import { execWrapped, readInfra } from '../workspace/exec-checked.js';
import { readTail, statSizes } from './read-sandbox-file.js';
import { readParserOutput, type ParserVerdict } from './read-parser-output.js';

/** The artifact's names inside the sandbox are a contract (ARCHITECTURE.md). */
export const TEST_FILES = {
  script: `${SCRATCH_DIR}/test_script.sh`,
  parser: `${SCRATCH_DIR}/test_parser.py`,
  log: `${SCRATCH_DIR}/test.log`,
  parserOut: `${SCRATCH_DIR}/parser.out`,
  parserErr: `${SCRATCH_DIR}/parser.err`,
} as const;

export const DEFAULT_PARSER_TIMEOUT_MS = 30_000;
/** A status map of 100k tests is a few MiB; more than this is not a status map. */
const MAX_PARSER_STDOUT_BYTES = 32 * 1024 * 1024;
const PARSER_STDERR_TAIL_BYTES = 4096;

export interface ParserRunResult {
  verdict: ParserVerdict;
  durationMs: number;
}

/**
 * Run the test_parser.py already written to the sandbox on the log already there
 * ({@link TEST_FILES}), inside the sandbox. Calling it twice on one log is how the validator
 * checks that a parser is deterministic. Throws EngineError only when the sandbox fails.
 */
export async function runParser(sandbox: Sandbox, timeoutMs = DEFAULT_PARSER_TIMEOUT_MS): Promise<ParserRunResult> {
  const f = TEST_FILES;
  const parser = await execWrapped(sandbox, 'running the test parser', `rm -f ${f.parserOut} ${f.parserErr}; python3 ${f.parser} < ${f.log} > ${f.parserOut} 2> ${f.parserErr}`, {
    cwd: REPO_DIR,
    timeoutMs,
  });
  const [stdoutBytes = 0] = await statSizes(sandbox, [f.parserOut]);
  const stdout =
    stdoutBytes > MAX_PARSER_STDOUT_BYTES
      ? `(the parser printed ${stdoutBytes} bytes, more than the ${MAX_PARSER_STDOUT_BYTES}-byte cap)`
      : stdoutBytes === 0
        ? ''
        : (await readInfra(sandbox, f.parserOut)).toString('utf8');
  const verdict = readParserOutput({
    exitCode: parser.exitCode,
    timedOut: parser.timedOut,
    durationMs: parser.durationMs,
    timeoutMs,
    stdout,
    // stderr only matters when the parser crashed; spare the round trip otherwise.
    stderr: parser.exitCode !== 0 && !parser.timedOut ? await readTail(sandbox, f.parserErr, PARSER_STDERR_TAIL_BYTES) : '',
  });
  return { verdict, durationMs: parser.durationMs };
}
