import { REPO_DIR, SCRATCH_DIR, type Sandbox } from '../sandbox/sandbox.js';
import { execMustSucceed } from '../workspace/exec-checked.js';
import { reinitGit } from '../workspace/reinit-git.js';

// The patches applied so far went through the scratch dir (bug_inject.diff reversed is the fix);
// bytecode caches were compiled from the original code. Both go before the history is re-made.
const SCRUB_SCRIPT = `
set -eu
find ${SCRATCH_DIR} -mindepth 1 -delete
find ${REPO_DIR} -name __pycache__ -type d -prune -exec rm -rf {} +
`;

/**
 * Remove every trace of the original state O from a sandbox that holds a buggy state: empty the
 * scratch dir, delete bytecode caches, and wipe `.git` for one fresh commit of the tree as it is
 * now (see reinitGit). The Solver's sandbox gets this before the Solver starts, and grading gets it
 * after the patch is applied and the test files are restored, before the tests run: otherwise code
 * under test could read O back (`git show HEAD:<file>` — a mined bug's O is the fix commit itself —
 * or the bug patch left in the scratch dir) and run it instead of the buggy code.
 */
export async function forgetOriginal(sandbox: Sandbox): Promise<{ commit: string }> {
  await execMustSucceed(sandbox, 'scrubbing the buggy sandbox', SCRUB_SCRIPT);
  return reinitGit(sandbox);
}
