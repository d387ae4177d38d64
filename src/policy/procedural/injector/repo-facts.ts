import { posix } from 'node:path';
import { isCodePath, isTestPath } from '../../../code/classify-path.js';
import type { RunSummary } from './run-summary.js';
import { locateTest } from './test-ids.js';
import type { TestSuite } from './test-suite.js';

/** A tracked source file (Python, or JS/TS for a JS repo) with its size. */
export interface SourceFile {
  path: string;
  lines: number;
  bytes: number;
}

/** What discovery learnt about the repository. */
export interface RepoFacts {
  sourceFiles: Map<string, SourceFile>;
  /** Files that hold tests by name (`test_*.py`, `*_test.py`, `*.test.js`), conftest excluded, and those the runner named. */
  testFiles: Set<string>;
  /** Code files a bug may go into (not tests, not conftest, not tooling configuration). */
  codeFiles: string[];
  suite: TestSuite;
  /** The clean run of the whole suite. */
  baseline: RunSummary;
  /** Per test file: tests passing and failing on the original repo. */
  perFile: Map<string, { passed: number; failed: number }>;
  /** Executed lines per code file, when the tracer ran. */
  coverage: Map<string, Set<number>> | null;
  /** Seconds each later run of the suite may take: derived from the clean run's time (see runLimitSeconds). */
  runLimitS: number;
}

/** `@@py LINES BYTES PATH` (Python) or `@@src LINES BYTES PATH` (JS/TS) lines of the setup listing. */
export function parseSourceListing(text: string): Map<string, SourceFile> {
  const files = new Map<string, SourceFile>();
  for (const line of text.split('\n')) {
    const match = /^@@(?:py|src) (\d+) (\d+) (.+)$/.exec(line.trimEnd());
    if (match) files.set(match[3]!, { path: match[3]!, lines: Number(match[1]), bytes: Number(match[2]) });
  }
  return files;
}

/** Split tracked Python files into test modules and code files. */
export function classifyPyFiles(files: Iterable<string>): { testFiles: Set<string>; codeFiles: string[] } {
  const testFiles = new Set<string>();
  const codeFiles: string[] = [];
  for (const path of files) {
    const name = posix.basename(path);
    if (isTestPath(path)) {
      if (/^test_.*\.py$|_test\.py$|^tests?\.py$/.test(name)) testFiles.add(path);
    } else if (isCodePath(path) && path.endsWith('.py')) codeFiles.push(path);
  }
  return { testFiles, codeFiles: codeFiles.sort() };
}

/**
 * Passing / failing counts per test file, from the baseline's per-group counts (pytest and JS
 * groups are files) or, for unittest, by mapping each group (a module) and each failing id to its file.
 */
export function countsPerFile(summary: RunSummary, suite: TestSuite, testFiles: ReadonlySet<string>): Map<string, { passed: number; failed: number }> {
  const out = new Map<string, { passed: number; failed: number }>();
  for (const [key, counts] of summary.groups) {
    const file = suite.kind === 'unittest' ? locateTest(`${key}.X.y`, suite, testFiles)?.file : key;
    if (!file || !testFiles.has(file)) continue;
    const entry = out.get(file) ?? { passed: 0, failed: 0 };
    entry.passed += counts.passed;
    entry.failed += counts.failed;
    out.set(file, entry);
  }
  // A module-level error (unittest's failed import, a setUpClass error) is a failure of its file too.
  for (const failure of summary.failures) {
    const file = locateTest(failure.id, suite, testFiles)?.file;
    if (!file) continue;
    const entry = out.get(file) ?? { passed: 0, failed: 0 };
    if (entry.failed === 0) entry.failed = 1;
    out.set(file, entry);
  }
  return out;
}

/** `@@cov PATH 1-4,7` lines of trace_lines.py. */
export function parseCoverage(text: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const line of text.split('\n')) {
    const match = /^@@cov (.+) ([\d,-]+)$/.exec(line.trimEnd());
    if (!match) continue;
    const lines = new Set<number>();
    for (const part of match[2]!.split(',')) {
      const [from, to = from] = part.split('-').map(Number);
      if (from === undefined || to === undefined || !Number.isFinite(from) || !Number.isFinite(to)) continue;
      for (let n = from; n <= to; n++) lines.add(n);
    }
    out.set(match[1]!, lines);
  }
  return out;
}

/** The executed lines a traced run printed (parseCoverage), null when it printed none. */
export function coverageOf(traceText: string): Map<string, Set<number>> | null {
  const coverage = parseCoverage(traceText);
  return coverage.size > 0 ? coverage : null;
}
