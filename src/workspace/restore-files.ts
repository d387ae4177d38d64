import type { Sandbox } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import { shellQuote } from '../util/shell-quote.js';
import { execMustSucceed, scratchFile, writeInfra } from './exec-checked.js';
import { repoRelativePath } from './repo-path.js';

/** What happened to each path: `restored` to its HEAD content, or `removed` (it is not in HEAD). */
export type RestoreOutcome = 'restored' | 'removed';

export interface RestoreResult {
  /** Normalised repo-relative path → what was done to it, in the order given. */
  outcomes: Array<{ path: string; outcome: RestoreOutcome }>;
}

// Paths travel in a NUL-separated file, never on the command line: no quoting pitfalls and no
// argument-length limit. --literal-pathspecs: a test path with `*` or `:` is a path, not a pattern.
const RESTORE_SCRIPT = `
set -u
mapfile -d '' -t paths < "$1"
restore=(); status=''
for p in "\${paths[@]}"; do
  if git cat-file -e "HEAD:$p" 2>/dev/null; then restore+=("$p"); status+=R
  else rm -rf -- "$p" || exit 3; status+=D; fi
done
if [ \${#restore[@]} -gt 0 ]; then
  git --literal-pathspecs restore --source=HEAD --worktree -- "\${restore[@]}" || exit 4
fi
rm -f -- "$1"
printf '\\n@@status %s\\n' "$status"
`;

/**
 * Put every path back to its content at HEAD (the original state O); a path that does not exist
 * at HEAD is deleted. One exec for the whole list. The index is left alone.
 */
export async function restoreFiles(sandbox: Sandbox, paths: readonly string[]): Promise<RestoreResult> {
  const normalised = [...new Set(paths.map(repoRelativePath))];
  if (normalised.length === 0) return { outcomes: [] };
  const list = scratchFile('restore', '.list');
  await writeInfra(sandbox, list, Buffer.from(normalised.map((path) => `${path}\0`).join('')));
  const command = `bash -c ${shellQuote(RESTORE_SCRIPT)} restore ${shellQuote(list)}`;
  const result = await execMustSucceed(sandbox, 'restoring files to HEAD', command);
  const status = /@@status ([RD]*)\s*$/.exec(result.output)?.[1];
  if (status?.length !== normalised.length) {
    throw new EngineError('sandbox-failed', `restoring files to HEAD: unexpected output ${JSON.stringify(result.output.slice(-300))}`);
  }
  return {
    outcomes: normalised.map((path, index) => ({ path, outcome: status[index] === 'R' ? 'restored' : 'removed' })),
  };
}
