import { statusMapSchema, testStatusSchema, type ParserFailure, type StatusMap } from './test-report.js';

/** What the parser process did, as observed in the sandbox. */
export interface ParserRun {
  /** null when it was killed. */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The parser's time limit, ms (for the message). */
  timeoutMs: number;
  /** Its stdout alone (stderr never mixes in: a warning must not corrupt the JSON). */
  stdout: string;
  /** The tail of its stderr. */
  stderr: string;
}

export type ParserVerdict = { status: 'ok'; statuses: StatusMap } | { status: 'failed'; failure: ParserFailure };

const QUOTE_CHARS = 200;

function quote(text: string): string {
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

/** The first entry that breaks the status-map schema, described for a human. */
function badEntry(value: unknown): { message: string; head: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { message: `the parser printed ${kind}, not an object of test id → "passed" | "failed"`, head: quote(JSON.stringify(value)) };
  }
  for (const [id, status] of Object.entries(value)) {
    const entry = quote(JSON.stringify({ [id]: status }));
    if (id === '') return { message: 'the parser printed an empty test id', head: entry };
    if (!testStatusSchema.safeParse(status).success) {
      return { message: `test ${JSON.stringify(id)} has status ${quote(JSON.stringify(status) ?? String(status))}; only "passed" or "failed" are allowed`, head: entry };
    }
  }
  return undefined;
}

/**
 * Turn what the parser did into a status map or a specific failure. A status is never guessed:
 * a parser that timed out, crashed or printed anything but a valid map yields no statuses at all.
 */
export function readParserOutput(run: ParserRun): ParserVerdict {
  const fail = (failure: ParserFailure): ParserVerdict => ({ status: 'failed', failure });
  if (run.timedOut) return fail({ code: 'parser-timeout', message: `the parser did not finish within its ${run.timeoutMs} ms limit` });
  if (run.exitCode !== 0) {
    return fail({ code: 'parser-crashed', message: `the parser exited with code ${run.exitCode ?? 'null (killed)'}`, exitCode: run.exitCode, stderr: run.stderr });
  }
  let value: unknown;
  try {
    value = JSON.parse(run.stdout);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return fail({ code: 'parser-output-not-json', message: `the parser's stdout is not JSON (${why})`, head: quote(run.stdout) });
  }
  const parsed = statusMapSchema.safeParse(value);
  if (parsed.success) return { status: 'ok', statuses: parsed.data };
  const bad = badEntry(value) ?? { message: `the parser's output breaks the status-map schema: ${parsed.error.message}`, head: quote(run.stdout) };
  return fail({ code: 'parser-output-bad-schema', ...bad });
}
