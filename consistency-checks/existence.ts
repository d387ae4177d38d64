import { testFilePathProblem } from '../src/artifact/test-files-list.js';
import { isTestPath } from '../src/code/classify-path.js';
import { isDiffParseError } from '../src/code/diff-parse-error.js';
import { bugHunkProblems, isDoctestHost, weakenHunkProblems } from '../src/code/doctest-diff-rules.js';
import { parseUnifiedDiff, type ParsedDiff } from '../src/code/unified-diff.js';
import { isEngineError } from '../src/util/engine-error.js';
import type { ArtifactDiffName, CheckResult, ConsistencyCheck, ValidationContext } from '../src/validator/check-types.js';

type Verdict = Omit<CheckResult, 'durationMs' | 'name'>;

const fail = (reason: string, evidence: Record<string, unknown>): Verdict => ({ status: 'fail', reason, evidence });

function parse(name: ArtifactDiffName, text: string): { diff: ParsedDiff } | { failure: Verdict } {
  try {
    return { diff: parseUnifiedDiff(text) };
  } catch (error) {
    if (!isDiffParseError(error)) throw error;
    return { failure: fail(`${name} is not a valid unified diff: ${error.message}`, { diff: name, line: error.line, error: error.message }) };
  }
}

/** A touched path git apply would refuse, or that escapes the working tree. */
function unsafePath(path: string): string | null {
  if (path.split('/')[0] === '.git') return `"${path}" is inside .git`;
  return testFilePathProblem(path);
}

/** The checks that need only the two diffs, the list and O's file list; every problem, not just the first. */
function staticProblems(ctx: ValidationContext, bug: ParsedDiff, weaken: ParsedDiff, original: ReadonlySet<string>, doctestFiles: ReadonlyMap<string, string>): { problems: string[]; evidence: Record<string, unknown> } {
  const listed = new Set(ctx.artifact.testFiles);
  const missing = ctx.artifact.testFiles.filter((path) => !original.has(path));
  const unlisted = weaken.touchedPaths.filter((path) => !listed.has(path));
  // A listed code file is a doctest host: its examples are the tests, its code may take the bug (hunk rules below).
  const forbidden = bug.touchedPaths.filter((path) => (listed.has(path) && !isDoctestHost(path)) || isTestPath(path));
  const bugHunks = bugHunkProblems(bug, doctestFiles);
  const weakenHunks = weakenHunkProblems(weaken, bug, doctestFiles);
  const unsafe = [...bug.touchedPaths, ...weaken.touchedPaths].map(unsafePath).filter((problem) => problem !== null);
  const problems: string[] = [];
  if (unsafe.length > 0) problems.push(`the diffs touch paths outside the repo: ${unsafe.join(', ')}`);
  if (missing.length > 0) problems.push(`test_files.txt lists files that do not exist in the original repo: ${missing.join(', ')}`);
  if (unlisted.length > 0) problems.push(`test_weaken.diff touches files not listed in test_files.txt: ${unlisted.join(', ')}`);
  if (forbidden.length > 0) problems.push(`bug_inject.diff touches test files (listed, or named like tests): ${forbidden.join(', ')}`);
  if (bugHunks.length > 0) problems.push(`bug_inject.diff must change code and no doctest example: ${bugHunks.join('; ')}`);
  if (weakenHunks.length > 0) problems.push(`test_weaken.diff may change a code file only in its doctest examples: ${weakenHunks.join('; ')}`);
  return { problems, evidence: { missing, unlisted, forbidden, unsafe, bugHunks, weakenHunks } };
}

/**
 * method §3.1 existence: every listed test file exists in O; test_weaken.diff touches listed files
 * only; bug_inject.diff touches no listed file and no test file ({@link isTestPath}) — a listed code
 * file is a doctest host, where bug_inject.diff must change code and no example and test_weaken.diff
 * only examples (classified by hunk: {@link bugHunkProblems}, {@link weakenHunkProblems}); both diffs
 * parse, and apply cleanly (bug_inject on O, test_weaken on B). The only check that runs no tests.
 */
export const existenceCheck: ConsistencyCheck = {
  name: 'existence',
  async run(ctx) {
    const { artifact } = ctx;
    if (artifact.testFiles.length === 0) return fail('test_files.txt lists no test files', { testFiles: 0 });
    const bug = parse('bug_inject.diff', artifact.bugInject);
    if ('failure' in bug) return bug.failure;
    const weaken = parse('test_weaken.diff', artifact.testWeaken);
    if ('failure' in weaken) return weaken.failure;

    let original: ReadonlySet<string>;
    let doctestFiles: ReadonlyMap<string, string>;
    try {
      original = await ctx.originalFiles();
      doctestFiles = await ctx.originalDoctestFiles();
    } catch (error) {
      if (!isEngineError(error)) throw error;
      return { status: 'error', reason: `could not read the original repo's files: ${error.message}`, evidence: { code: error.code } };
    }
    const { problems, evidence } = staticProblems(ctx, bug.diff, weaken.diff, original, doctestFiles);
    if (problems.length > 0) return fail(problems.join('; '), evidence);

    for (const state of ['buggy', 'weakened'] as const) {
      const outcome = await ctx.applyState(state);
      if (outcome.status === 'error') {
        return { status: 'error', reason: `could not prepare the ${state} state: ${outcome.error.message}`, evidence: { state, code: outcome.error.code } };
      }
      if (outcome.status === 'apply-failed') {
        const onto = outcome.diff === 'bug_inject.diff' ? 'the original repo' : 'the buggy repo (original + bug_inject.diff)';
        return fail(`${outcome.diff} does not apply cleanly to ${onto}: ${outcome.detail}`, { diff: outcome.diff, detail: outcome.detail });
      }
    }
    const bugFiles = bug.diff.touchedPaths;
    const weakenedFiles = weaken.diff.touchedPaths;
    return {
      status: 'pass',
      reason:
        `${artifact.testFiles.length} listed test file(s) exist; test_weaken.diff touches ${weakenedFiles.length} listed file(s); ` +
        `bug_inject.diff touches ${bugFiles.length} non-test file(s); both diffs apply cleanly`,
      evidence: { testFiles: artifact.testFiles.length, bugFiles, weakenedFiles },
    };
  },
};
