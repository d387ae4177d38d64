import { brokenTestsOf, fail, pass, sample, type Verdict } from '../src/validator/check-helpers.js';
import type { ConsistencyCheck } from '../src/validator/check-types.js';
import { filesSpanned } from '../src/validator/test-file-of.js';

/**
 * Breadth cap (issue 14): a bug that fails more than `max_failing_tests` oracle tests, or fails
 * tests in more than `max_failing_files` test files, is blunt (an if/else swap failing 44 tests in
 * 19 files, a crash on import) rather than a bug worth repairing: rejected. Reads the O and B runs
 * `failing-tests` already made, so it costs nothing.
 */
export const breadthCheck: ConsistencyCheck = {
  name: 'breadth',
  async run(ctx): Promise<Verdict> {
    const read = await brokenTestsOf(ctx);
    if ('verdict' in read) return read.verdict;
    const { broken } = read;
    const files = filesSpanned(broken, ctx.artifact.testFiles);
    const { max_failing_tests: maxTests, max_failing_files: maxFiles } = ctx.thresholds;
    const evidence = { failing: broken.length, files: files.length, failingFiles: sample(files), maxFailingTests: maxTests, maxFailingFiles: maxFiles };
    if (broken.length > maxTests) {
      return fail(`the bug makes ${broken.length} tests fail, more than max_failing_tests (${maxTests}): too blunt a bug`, evidence);
    }
    if (files.length > maxFiles) {
      return fail(`the bug makes tests fail in ${files.length} test files, more than max_failing_files (${maxFiles}): too blunt a bug`, evidence);
    }
    return pass(`the bug makes ${broken.length} test(s) fail in ${files.length} file(s) (caps ${maxTests} tests, ${maxFiles} files)`, evidence);
  },
};
