import { isCodePath } from '../src/code/classify-path.js';
import { parseUnifiedDiff } from '../src/code/unified-diff.js';
import { fail, pass, type Verdict } from '../src/validator/check-helpers.js';
import type { ConsistencyCheck } from '../src/validator/check-types.js';

/** method §3.4 min changed files: bug_inject.diff changes at least `min_changed_files` code files. */
export const minFilesCheck: ConsistencyCheck = {
  name: 'min-files',
  async run(ctx): Promise<Verdict> {
    const touched = parseUnifiedDiff(ctx.artifact.bugInject).touchedPaths;
    const codeFiles = touched.filter(isCodePath);
    const min = ctx.thresholds.min_changed_files;
    const evidence = { codeFiles, otherFiles: touched.filter((path) => !isCodePath(path)), minChangedFiles: min };
    if (codeFiles.length < min) {
      return fail(`bug_inject.diff changes ${codeFiles.length} code file(s); at least ${min} required`, evidence);
    }
    return pass(`bug_inject.diff changes ${codeFiles.length} code file(s) (minimum ${min})`, evidence);
  },
};
