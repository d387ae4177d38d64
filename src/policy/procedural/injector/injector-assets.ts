import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../../../util/package-root.js';
import { readDefaultTestFiles } from '../../../harness/default-files.js';
import { traceLinesScript, v8LinesScript } from '../../../coverage/trace-script.js';

/**
 * The Python files the procedural Injector writes into the sandbox (for Python and JS repos alike), read at runtime from
 * `src/policy/procedural/injector/` under the package root (the compiled build does not copy .py
 * files, so, like the harness defaults, they are found by walking up to the package root).
 */
export interface InjectorAssets {
  /** The harness's default pytest `-rA` parser (test_parser.py of a pytest artifact). */
  pytestParser: string;
  /** `parsers/unittest_parser.py` (test_parser.py of a unittest artifact). */
  unittestParser: string;
  /** `scripts/summarize_run.py`: condenses one run for the Injector. */
  summarizeRun: string;
  /** `src/coverage/trace_lines.py` (shared with the validator): which code lines the suite executes. */
  traceLines: string;
  /** `scripts/apply_edits.py`: several whole-line edits in one command (fewer turns than one `edit` each). */
  applyEdits: string;
  /** `scripts/js_failures.py`: exception and test-file line of each failing JS test (summarize_run.py imports it). */
  jsFailures: string;
  /** `src/coverage/v8_lines.py` (shared with the validator): which lines of JS code files Node's V8 coverage saw run, per test file. */
  v8Lines: string;
}

let cached: InjectorAssets | undefined;

export function injectorAssets(): InjectorAssets {
  if (cached) return cached;
  const dir = assetsDir();
  const read = (...parts: string[]) => readFileSync(join(dir, ...parts), 'utf8');
  cached = {
    pytestParser: readDefaultTestFiles().testParser,
    unittestParser: read('parsers', 'unittest_parser.py'),
    summarizeRun: read('scripts', 'summarize_run.py'),
    traceLines: traceLinesScript(),
    applyEdits: read('scripts', 'apply_edits.py'),
    jsFailures: read('scripts', 'js_failures.py'),
    v8Lines: v8LinesScript(),
  };
  return cached;
}

/** `src/policy/procedural/injector/` of the package this module belongs to. */
export function assetsDir(): string {
  return packagePath('src', 'policy', 'procedural', 'injector');
}
