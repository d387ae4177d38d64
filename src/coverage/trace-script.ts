import { readFileSync } from 'node:fs';
import { packagePath } from '../util/package-root.js';

/**
 * `trace_lines.py`: per-test-file line coverage of a Python suite (sys.settrace, stdlib only). One
 * script for its two users, the procedural Injector (which lines to break, which tests to try a
 * change on) and the validator (which tests a bug's states must run); read at runtime because the
 * compiled build does not copy .py files.
 */
export function traceLinesPath(): string {
  return packagePath('src', 'coverage', 'trace_lines.py');
}

/**
 * `v8_lines.py`: the same per-test-file map for a JS suite, read from Node's V8 coverage (a Node
 * process that loaded exactly one test file is that file's). One script for the same two users;
 * its map is what `trace_lines.py --query` reads.
 */
export function v8LinesPath(): string {
  return packagePath('src', 'coverage', 'v8_lines.py');
}

const cached = new Map<string, string>();

/** The text of {@link traceLinesPath}, read once. */
export function traceLinesScript(): string {
  return readOnce(traceLinesPath());
}

/** The text of {@link v8LinesPath}, read once. */
export function v8LinesScript(): string {
  return readOnce(v8LinesPath());
}

function readOnce(path: string): string {
  let text = cached.get(path);
  if (text === undefined) cached.set(path, (text = readFileSync(path, 'utf8')));
  return text;
}
