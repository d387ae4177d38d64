import type { Sandbox } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import { execMustSucceed } from './exec-checked.js';

// A fixed identity and no hooks or signing: the commit must not depend on the image's git config.
const REINIT_SCRIPT = `
set -eu
rm -rf .git
git -c init.defaultBranch=main init -q
git add -A
git -c user.name=ssr -c user.email=ssr@localhost -c commit.gpgsign=false \\
  commit -q --no-verify --allow-empty -m "Initial commit"
git rev-parse HEAD
`;

/**
 * Wipe the repository's history: delete `.git`, `git init`, add everything (respecting
 * .gitignore) and make one fresh commit "Initial commit". The Solver starts from this, so no
 * earlier commit (and no trace of the original code) remains. Returns the new commit id.
 */
export async function reinitGit(sandbox: Sandbox): Promise<{ commit: string }> {
  const result = await execMustSucceed(sandbox, 're-initialising git', REINIT_SCRIPT);
  const commit = /([0-9a-f]{40})\s*$/.exec(result.output)?.[1];
  if (!commit) throw new EngineError('sandbox-failed', `re-initialising git: no commit id in ${JSON.stringify(result.output.slice(-200))}`);
  return { commit };
}
