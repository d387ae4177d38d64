import type { Sandbox } from '../sandbox/sandbox.js';
import { shellQuote } from '../util/shell-quote.js';
import { execInfra, execMustSucceed, readInfra, scratchFile, writeInfra } from './exec-checked.js';
import { repoRelativePath } from './repo-path.js';

// A throwaway index (a copy of the real one, so git's stat cache spares re-hashing unchanged
// files) takes `git add -A`: new untracked files and deletions show up in the diff, and the
// repository's own index is never touched. Prefixes are forced so a user's diff.noprefix or
// external diff tools cannot change the format.
const DIFF_SCRIPT = `
set -u
export GIT_INDEX_FILE="$1"; out="$2"; list="$3"
trap 'rm -f -- "$GIT_INDEX_FILE" "$GIT_INDEX_FILE.lock" "$list"' EXIT
mkdir -p -- "\${out%/*}" || exit 3
# -p keeps the index's mtime: git trusts an entry's cached stat only when the file is older than the
# index, so a fresh copy (mtime now) would hide a same-size edit made in the second the entry was
# written ("racy git"), and the diff would silently miss that file.
if [ -f .git/index ]; then cp -p .git/index "$GIT_INDEX_FILE" || exit 3; else rm -f -- "$GIT_INDEX_FILE"; fi
git add -A >/dev/null || exit 4
paths=()
if [ -f "$list" ]; then mapfile -d '' -t paths < "$list"; fi
git --literal-pathspecs diff --cached --binary --no-color --no-ext-diff --no-textconv \\
  --src-prefix=a/ --dst-prefix=b/ HEAD -- "\${paths[@]}" > "$out" || exit 5
`;

/**
 * A git-style unified diff (a/ b/ prefixes, `--binary`) of the working tree against HEAD,
 * including new untracked files and deletions (files matched by .gitignore are not included),
 * optionally limited to `paths` (an empty list gives an empty diff). The repository's index
 * is left as it was.
 */
export async function diffAgainstHead(sandbox: Sandbox, paths?: readonly string[]): Promise<string> {
  if (paths?.length === 0) return '';
  const index = scratchFile('diff', '.index');
  const out = scratchFile('diff', '.diff');
  const list = scratchFile('diff', '.list');
  if (paths) {
    const normalised = paths.map(repoRelativePath);
    await writeInfra(sandbox, list, Buffer.from(normalised.map((path) => `${path}\0`).join('')));
  }
  const args = [index, out, list].map(shellQuote).join(' ');
  await execMustSucceed(sandbox, 'diffing the working tree against HEAD', `bash -c ${shellQuote(DIFF_SCRIPT)} diff ${args}`);
  const diff = await readInfra(sandbox, out);
  await execInfra(sandbox, 'removing a temporary diff', `rm -f -- ${shellQuote(out)}`);
  return diff.toString('utf8');
}
