/**
 * A diff that cannot be parsed: binary data, text that is not a diff, a hunk whose body does not
 * match its header, a file header without hunks. The message quotes the problem and its 1-based
 * line number. This is data about the input, never an infrastructure failure.
 */
export class DiffParseError extends Error {
  readonly code = 'diff-invalid';
  /** 1-based line of the problem in the diff text (0 when it is not tied to a line). */
  readonly line: number;

  constructor(message: string, line = 0) {
    super(line > 0 ? `line ${line}: ${message}` : message);
    this.name = 'DiffParseError';
    this.line = line;
  }
}

export function isDiffParseError(error: unknown): error is DiffParseError {
  return error instanceof DiffParseError;
}

/** Quote one line of input for an error message, shortened so a huge line cannot flood a log. */
export function quoteLine(line: string, max = 80): string {
  return JSON.stringify(line.length > max ? `${line.slice(0, max)}…` : line);
}
