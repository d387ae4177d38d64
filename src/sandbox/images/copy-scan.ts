import { EngineError } from '../../util/engine-error.js';
import { REPO_DIR } from '../sandbox.js';

/**
 * A file the image build created that holds exactly a tracked code file of the repo at its commit:
 * a pristine copy of code a bug may later change (build/lib/, dist-packages/, a tox env, a cache),
 * which a Solver could diff against the buggy tree.
 */
export interface CodeCopy {
  path: string;
  /** The tracked file it copies, repo-relative. */
  of: string;
}

export interface CopyScan {
  /** Copies in /repo's build outputs ({@link BUILD_OUTPUTS}) and untracked wheels / eggs: deleted by the scan. */
  removed: CodeCopy[];
  /** Copies anywhere else: outside /repo (a non-editable install, a cache), or untracked in /repo; the build is refused. */
  refused: CodeCopy[];
  /**
   * Copies in /repo/node_modules: a published version of the repo's own package that one of its
   * dev dependencies needs (tape depends on minimist), which the test tools load. Deleting it or
   * pointing it at the buggy tree would break the runner, so it stays, reported (a known gap).
   */
  kept: CodeCopy[];
}

/**
 * Where in /repo a copy is a build's by-product, deleted without asking: build/, dist/, egg-info,
 * .eggs, tox / nox environments, bytecode caches. A copy elsewhere in /repo (`cp x.example.py
 * x.py`) may be something the tests need: the build is refused instead, for the recipe to decide.
 */
export const BUILD_OUTPUTS = ['build', 'dist', '.eggs', '.tox', '.nox', '*.egg-info', '__pycache__'];
// `[.]`, not `\.`: awk -v would take the backslash for an escape of its own.
const BUILD_OUTPUT_RE = `^${REPO_DIR}/(.*/)?(build|dist|[.]eggs|[.]tox|[.]nox|[^/]*[.]egg-info|__pycache__)/`;

/** Touched before the setup steps: what is newer (ctime, which no unpacker can set back) came from them. */
export const SETUP_MARKER = '/.ssr-setup-started';

/**
 * Outside /repo, smaller files are not compared: a one-line `__init__.py` may equal some other
 * package's by chance. Inside /repo every non-empty untracked copy goes (deleting it costs nothing).
 */
export const MIN_OUTSIDE_BYTES = 64;

/** What counts as code: what a bug changes and a Solver would diff. */
const CODE_EXTENSIONS = 'py|pyx|pxd|pyi|c|h|cc|cpp|cxx|hpp|rs|go|js|mjs|cjs|jsx|ts|mts|cts|tsx|java|rb';

const EXIT_REFUSED = 3;

/**
 * The bash run in the build sandbox after the setup steps. Tracked code files are taken from
 * `git ls-tree HEAD` (their blob ids); candidate files of the same size are hashed with
 * `git hash-object` and compared. Inside /repo every untracked file is a candidate: copies in
 * build outputs are deleted (with directories they leave empty), as are untracked wheels and
 * eggs; with `outside`, every file outside /repo newer than {@link SETUP_MARKER} is a candidate
 * too. Copies in node_modules are kept (see CopyScan.kept); any other copy exits 3. Prints
 * `removed|refused|kept <TAB> path <TAB> original` lines.
 */
export function copyScanScript(options: { outside: boolean }): string {
  const outsideFind = options.outside
    ? `[ -e ${SETUP_MARKER} ] && find / -xdev \\( -path /proc -o -path /sys -o -path /dev -o -path ${REPO_DIR} \\) -prune -o -type f -cnewer ${SETUP_MARKER} -printf 'refused\\t%s\\t%p\\n' >> "$work/candidates" || true`
    : '';
  return `set -eu
cd ${REPO_DIR}
git rev-parse -q --verify HEAD >/dev/null || exit 0
work=$(mktemp -d)
git -c core.quotePath=false ls-tree -r -l HEAD | awk -F '\\t' '{ split($1, m, / +/); if (m[2] == "blob" && m[4] > 0 && $2 ~ /\\.(${CODE_EXTENSIONS})$/) print m[4] "\\t" m[3] "\\t" $2 }' > "$work/tracked"
git -c core.quotePath=false ls-files --cached | sed 's|^|${REPO_DIR}/|' > "$work/index"
find ${REPO_DIR} -path ${REPO_DIR}/.git -prune -o -type f -printf 'inside\\t%s\\t%p\\n' > "$work/candidates"
${outsideFind}
awk -F '\\t' -v min=${MIN_OUTSIDE_BYTES} 'FILENAME == ARGV[1] { size[$1] = 1; next } FILENAME == ARGV[2] { tracked[$0] = 1; next } ($2 in size) && !($3 in tracked) && ($1 == "inside" || $2 >= min) { print $1 "\\t" $3 }' "$work/tracked" "$work/index" "$work/candidates" > "$work/sized"
cut -f2 "$work/sized" | git hash-object --no-filters --stdin-paths > "$work/hashes"
paste "$work/sized" "$work/hashes" | awk -F '\\t' -v re='${BUILD_OUTPUT_RE}' -v deps='^${REPO_DIR}/(.*/)?node_modules/' 'FILENAME == ARGV[1] { of[$2] = $3; next } ($3 in of) { kind = $1; if (kind == "inside") kind = $2 ~ re ? "removed" : $2 ~ deps ? "kept" : "refused"; print kind "\\t" $2 "\\t" of[$3] }' "$work/tracked" - > "$work/copies"
git -c core.quotePath=false ls-files --others | grep -E '\\.(whl|egg)$' | sed 's|^|removed\\t${REPO_DIR}/|; s|$|\\t(a built package)|' >> "$work/copies" || true
cat "$work/copies"
grep '^removed' "$work/copies" | cut -f2 | while IFS= read -r path; do
  rm -f "$path"
  dir=$(dirname "$path")
  while [ "$dir" != ${REPO_DIR} ] && rmdir "$dir" 2>/dev/null; do dir=$(dirname "$dir"); done
done
status=0
grep -q '^refused' "$work/copies" && status=${EXIT_REFUSED}
rm -rf "$work" ${SETUP_MARKER}
exit $status
`;
}

/** The scan's report from its output and exit code; throws when the scan itself failed. */
export function parseCopyScan(output: string, exitCode: number | null, repoId: string): CopyScan {
  const scan: CopyScan = { removed: [], refused: [], kept: [] };
  for (const line of output.split('\n')) {
    const [kind, path, of] = line.split('\t');
    if ((kind === 'removed' || kind === 'refused' || kind === 'kept') && path && of) scan[kind].push({ path, of });
  }
  if (exitCode !== 0 && exitCode !== EXIT_REFUSED) {
    throw new EngineError('image-build-failed', `${repoId}: looking for copies of the repo's code in the image failed (exit ${exitCode ?? "killed"}): ${output.slice(-2000)}`);
  }
  return scan;
}

const listed = (copies: readonly CodeCopy[]): string =>
  copies.slice(0, 10).map((copy) => `${copy.path} (= ${copy.of})`).join(', ') + (copies.length > 10 ? ` and ${copies.length - 10} more` : '');

/**
 * @throws EngineError `config-invalid` when the setup steps left copies of the repo's code other
 *   than build outputs, naming them and what to do; the image is not committed.
 */
export function refuseCodeCopies(scan: CopyScan, repoId: string): void {
  if (scan.refused.length === 0) return;
  throw new EngineError(
    'config-invalid',
    `${repoId}: the setup steps left copies of the repo's own code beside its tracked files: ${listed(scan.refused)}. A Solver could diff such a ` +
      'pristine copy against the buggy code (and the tests might import it instead of the code under test). Install the repo editable: a `pip:` / ' +
      '`uv:` step whose target is `.` is made `-e .` by ssr; a shell step that installs it (pip install ., setup.py install) must use -e; ' +
      `other copies must not be left by the setup steps (ssr deletes them only in build outputs: ${BUILD_OUTPUTS.join(', ')})`,
  );
}

/** The progress lines for the copies deleted from /repo and those kept in node_modules. */
export function copySummaries(scan: CopyScan): string[] {
  return [
    ...(scan.removed.length === 0 ? [] : [`deleted ${scan.removed.length} copies of the repo's code from build outputs in ${REPO_DIR}: ${listed(scan.removed)}`]),
    ...(scan.kept.length === 0 ? [] : [`warning: kept ${scan.kept.length} copies of the repo's code in node_modules (a dev dependency needs the repo's own package; a Solver could diff them): ${listed(scan.kept)}`]),
  ];
}
