import { posix } from 'node:path';
import { isCodePath, isTestPath } from '../../../code/classify-path.js';
import { JS_LANGUAGES, languageOfPath } from '../../../code/source-language.js';

/** The JS/TS sources `git ls-files` lists for a JS repo (node_modules is never tracked; declarations and bundles are left out below). */
export const JS_SOURCE_GLOBS = ['*.js', '*.mjs', '*.cjs', '*.jsx', '*.ts', '*.mts', '*.cts', '*.tsx'] as const;

/** Paths that look like tests by the runners' default patterns (`*.test.js`, `*.spec.ts`, `test-*.js`, `test/`), for the listing's order. */
export const JS_TEST_LIKE = String.raw`(^|/)(tests?|__tests__|spec)/|\.(test|spec)\.[cm]?[jt]sx?$|(^|/)test[-_.][^/]*$|[-_]test\.[cm]?[jt]sx?$`;

/** Files that are JS/TS but neither code to break nor tests: declarations, bundles, tooling configuration. */
const NOT_CODE = [
  /\.d\.[cm]?ts$/,
  /\.min\.js$/,
  /(^|\/)node_modules\//,
  /(^|\/)(dist|build|coverage|vendor|fixtures?|examples?|benchmarks?|docs?|scripts)\//,
  // Runner, bundler and linter configuration changes what runs, not what the code does.
  /(^|\/)[^/]*\.config\.[cm]?[jt]s$/,
  /(^|\/)\.[^/]*rc\.[cm]?js$/,
  /(^|\/)(Gruntfile|gulpfile|Jakefile)\.[cm]?js$/i,
];

// Test files by name: the node:test, Jest, Vitest and Mocha default patterns.
const TEST_FILE_NAME = /\.(test|spec)\.[cm]?[jt]sx?$|^test[-_][^/]*\.[cm]?[jt]sx?$|[-_]test\.[cm]?[jt]sx?$|^test\.[cm]?[jt]s$/;

/**
 * Split the tracked JS/TS files into test files (by the runners' name patterns; the files the
 * runner reports are added by discovery) and code files a bug may go into: sources that are no
 * test material (nothing under test/ or __tests__/), no declaration, bundle or tooling config.
 */
export function classifyJsFiles(files: Iterable<string>): { testFiles: Set<string>; codeFiles: string[] } {
  const testFiles = new Set<string>();
  const codeFiles: string[] = [];
  for (const path of files) {
    const language = languageOfPath(path);
    if (!language || !JS_LANGUAGES.includes(language) || NOT_CODE.some((pattern) => pattern.test(path))) continue;
    if (isTestPath(path) || TEST_FILE_NAME.test(posix.basename(path))) {
      if (TEST_FILE_NAME.test(posix.basename(path))) testFiles.add(path);
    } else if (isCodePath(path)) codeFiles.push(path);
  }
  return { testFiles, codeFiles: codeFiles.sort() };
}

/** Whether V8's coverage of a file maps to its own lines: plain JavaScript that Node runs as written (no TypeScript, no JSX). */
export function coverableByV8(path: string): boolean {
  return /\.[cm]?js$/.test(path);
}
