import { readFileSync } from 'node:fs';
import type { JsRunner } from '../../../harness/js-test-files.js';
import { packagePath } from '../../../util/package-root.js';

/**
 * The pieces of the Solver's shell commands that differ on a JavaScript / TypeScript repo: the
 * script that runs the whole suite or some test files with the repo's runner, and the report
 * script (`scripts/js_report.py`) that condenses a run the way the pytest report does.
 */

/**
 * Runners whose code V8 coverage can map back to the files: no transform in between, or (Vitest)
 * a setup-file hook that maps it through the transform's source maps (`vitest_coverage.mjs`).
 */
const COVERED: ReadonlySet<JsRunner> = new Set(['node-test', 'tape', 'node-tap', 'mocha', 'vitest']);

/** Whether the Solver can localise with V8 coverage under this runner (Jest transforms the code first). */
export function jsCoverageWorks(runner: JsRunner): boolean {
  return COVERED.has(runner);
}

// Each runner's command for the test files in "$@", printing what the harness parser of the runner reads.
const JSON_REPORT = (command: string): string[] => [
  'report=$(mktemp)',
  command,
  'status=$?',
  'echo ssr-json-report-begin',
  'cat "$report"',
  'echo',
  'echo ssr-json-report-end',
  'rm -f "$report"',
  'exit "$status"',
];
const ONE_BY_ONE = (command: string): string[] => [
  'status=0',
  'for file in "$@"; do',
  '  echo "ssr-test-file: ${file#./}"',
  `  ${command} "$file" || status=1`,
  'done',
  'exit "$status"',
];
const FILE_RUNS: Record<JsRunner, string[]> = {
  'node-test': ONE_BY_ONE('node --test --test-reporter=tap'),
  tape: ONE_BY_ONE('node'),
  'node-tap': ONE_BY_ONE('node'),
  jest: JSON_REPORT('node_modules/.bin/jest --ci --json --outputFile="$report" --watchman=false --cacheDirectory=/tmp/ssr-jest-cache --runTestsByPath "$@"'),
  vitest: JSON_REPORT('node_modules/.bin/vitest run --reporter=json --outputFile="$report" --color=false "$@"'),
  mocha: JSON_REPORT('node_modules/.bin/mocha --reporter json --reporter-option "output=$report" --no-color "$@"'),
};

/**
 * The script the Solver runs the tests with: no arguments, the runner's whole suite (the
 * harness's own test script for it, saved at `suitePath`); else just the given test files, in
 * the same output format, so the runner's harness parser reads both.
 */
export function jsRunScript(runner: JsRunner, suitePath: string): string {
  return ['#!/usr/bin/env bash', 'cd /repo || exit 2', `[ "$#" -eq 0 ] && exec bash ${suitePath}`, ...FILE_RUNS[runner], ''].join('\n');
}

const scripts = new Map<string, string>();

/** A file of `scripts/`, read at runtime from the package (the build copies neither .py nor .mjs files). */
function solverScript(name: string): string {
  let text = scripts.get(name);
  if (text === undefined) {
    text = readFileSync(packagePath('src', 'policy', 'procedural', 'solver', 'scripts', name), 'utf8');
    scripts.set(name, text);
  }
  return text;
}

/** `scripts/js_report.py`. */
export function jsReportScript(): string {
  return solverScript('js_report.py');
}

/** `scripts/vitest_coverage.mjs`: runs Vitest with itself as a setup file that records per-test line coverage. */
export function vitestCoverageScript(): string {
  return solverScript('vitest_coverage.mjs');
}

/** The test file of a JS test id (`file > suite > test`): what a quick rerun of it runs. */
export function jsTestFile(id: string): string {
  return id.split(' > ')[0]!;
}
