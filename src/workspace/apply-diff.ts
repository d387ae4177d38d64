import type { Sandbox } from '../sandbox/sandbox.js';
import { shellQuote } from '../util/shell-quote.js';
import { posix } from 'node:path';
import { EngineError } from '../util/engine-error.js';
import { execInfra, scratchFile } from './exec-checked.js';

const { dirname } = posix;
/** Exit code of the write step, out of the range git and patch use. */
const WRITE_FAILED = 199;

/** The fallback chain, most exact first (method §4: git apply, then --3way, then patch --fuzz). */
export const APPLY_METHODS = ['git-apply', 'git-apply-3way', 'patch-fuzz'] as const;
export type ApplyMethod = (typeof APPLY_METHODS)[number];

export interface ApplyAttempt {
  method: ApplyMethod;
  exitCode: number | null;
  output: string;
}

/** A patch that does not apply is data (the Solver earns −1), never an exception. */
export type ApplyResult =
  | { status: 'applied'; method: ApplyMethod; output: string }
  | { status: 'failed'; attempts: ApplyAttempt[] };

export interface ApplyOptions {
  /** Names the patch file under the scratch dir (e.g. "bug_inject"), for readable logs. */
  label?: string;
  /** Apply the patch in reverse (undo it). */
  reverse?: boolean;
}

// 3-way runs against a throwaway index that snapshots the working tree, with --cached so a
// conflict never writes markers into files; only a clean result is then carried to the working
// tree, as a diff from the snapshot (which the working tree still equals, so it applies exactly).
// The copy keeps the index's mtime (cp -p), as diffAgainstHead's does: git trusts an entry's cached
// stat only when the file is older than the index, so a fresh copy (mtime now) would hide a
// same-size edit made in the second the entry was written ("racy git"). The snapshot would then
// hold the old content, the merge would succeed on it, the carried diff would not apply to the
// real file, and the chain would fall through to patch --fuzz.
const THREE_WAY_SCRIPT = `
set -u
patch="$1"; idx="$2"; shift 2
export GIT_INDEX_FILE="$idx"
trap 'rm -f -- "$idx" "$idx.lock" "$idx.diff"' EXIT
if [ -f .git/index ]; then cp -p .git/index "$idx" || exit 90; else rm -f -- "$idx"; fi
git add -A >/dev/null || { echo "ssr: could not snapshot the working tree"; exit 90; }
snap=$(git write-tree) || exit 90
git apply --3way --cached --whitespace=nowarn "$@" "$patch" || exit $?
git diff --cached --binary --full-index --no-renames --no-color --no-ext-diff --no-textconv \\
  --src-prefix=a/ --dst-prefix=b/ "$snap" > "$idx.diff" || exit 91
unset GIT_INDEX_FILE
git apply --whitespace=nowarn "$idx.diff" || exit 92
`;

// --dry-run first so a patch that fails half-way leaves nothing behind; rejects are discarded and
// no .orig backups are made, so the repository is never littered.
const PATCH_SCRIPT = `
set -u
opts=(-p1 --fuzz=3 --batch --forward --no-backup-if-mismatch --reject-file=- "$@")
patch --dry-run "\${opts[@]}" || exit $?
patch "\${opts[@]}"
`;

/** The shell command of one method; `patchFile` is already inside the sandbox. */
export function applyCommand(method: ApplyMethod, patchFile: string, reverse: boolean): string {
  const file = shellQuote(patchFile);
  const rev = reverse ? ' -R' : '';
  switch (method) {
    case 'git-apply':
      return `git apply --whitespace=nowarn${rev} ${file}`;
    case 'git-apply-3way':
      return `bash -c ${shellQuote(THREE_WAY_SCRIPT)} apply3 ${file} ${shellQuote(`${patchFile}.index`)}${rev}`;
    case 'patch-fuzz':
      return `bash -c ${shellQuote(PATCH_SCRIPT)} patch${rev} -i ${file}`;
  }
}

/**
 * Apply a git-style unified diff to the repository's working tree with the tolerant fallback
 * chain. The diff travels as a file under the scratch dir (never as an argument). Every failed
 * attempt leaves the tree as it was. An empty diff applies trivially.
 * Throws EngineError only when the sandbox itself fails.
 */
export async function applyDiff(sandbox: Sandbox, diffText: string, options: ApplyOptions = {}): Promise<ApplyResult> {
  if (diffText.trim() === '') return { status: 'applied', method: 'git-apply', output: '' };
  const file = scratchFile(options.label ?? 'patch', '.diff');
  // A model-written diff often lacks its final newline, which git reads as a corrupt last line.
  const stdin = diffText.endsWith('\n') ? diffText : `${diffText}\n`;
  const attempts: ApplyAttempt[] = [];
  for (const method of APPLY_METHODS) {
    // The first attempt also writes the patch (from stdin): one round trip for the common case.
    const write = attempts.length === 0 ? `mkdir -p ${shellQuote(dirname(file))} && cat > ${shellQuote(file)} || exit ${WRITE_FAILED}; ` : '';
    const command = `${write}${applyCommand(method, file, options.reverse ?? false)}`;
    const result = await execInfra(sandbox, `applying a patch (${method})`, command, attempts.length === 0 ? { stdin } : {});
    if (result.exitCode === WRITE_FAILED) throw new EngineError('sandbox-failed', `writing ${file}: ${result.output.slice(-500)}`, { retryable: true });
    if (result.exitCode === 0) return { status: 'applied', method, output: result.output };
    attempts.push({ method, exitCode: result.exitCode, output: result.output });
  }
  return { status: 'failed', attempts };
}
