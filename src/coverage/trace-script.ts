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

let cached: string | undefined;

/** The text of {@link traceLinesPath}, read once. */
export function traceLinesScript(): string {
  return (cached ??= readFileSync(traceLinesPath(), 'utf8'));
}
