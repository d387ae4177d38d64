import { repoRelativePath } from '../workspace/repo-path.js';

/**
 * What brings a fresh sandbox at O to the state whose tests a run measures, done by the test
 * driver in the same exec as the tests (one engine round trip per state, not three or four):
 * - `apply`: `git apply` a diff exactly (no 3-way, no fuzz: validation judges the diff as made);
 * - `revert`: put one path back to HEAD, or delete it when HEAD has no such path.
 */
export type PrepareStep = { apply: string; label: string } | { revert: string };

/** The first step that did not go through, as the driver reports it; the tests did not run. */
export interface PrepareFailure {
  /** Index into the steps. */
  step: number;
  exitCode: number;
  output: string;
}

/**
 * The steps as stdin lines for the driver: `A <base64 diff>` or `R <base64 repo-relative path>`.
 * Paths are normalised (and refused when they leave the repository) here, on the host.
 */
export function encodePrepareSteps(steps: readonly PrepareStep[]): string {
  const b64 = (text: string): string => Buffer.from(text).toString('base64');
  return steps
    .map((step) => {
      if ('revert' in step) return `R ${b64(repoRelativePath(step.revert))}\n`;
      // A diff without its final newline reads to git as a corrupt last line.
      return `A ${b64(step.apply.endsWith('\n') || step.apply === '' ? step.apply : `${step.apply}\n`)}\n`;
    })
    .join('');
}

/**
 * The driver's preparation (bash, in the repository; `$prep_n` step lines follow the script and
 * parser on stdin). On the first step that fails it prints
 *   SSR-PREPARE-FAILED <step> <exit code>
 *   <its output, base64>
 * and exits 0 without running the tests. An empty diff applies trivially. The driver removes
 * {@link PREPARE_FILES} afterwards.
 */
export const PREPARE_SNIPPET = `
prep_lines=()
for ((i = 0; i < prep_n; i++)); do IFS= read -r line; prep_lines+=("$line"); done
for ((i = 0; i < prep_n; i++)); do
  line="\${prep_lines[$i]}"; kind="\${line%% *}"; payload="\${line#* }"
  if [ "$kind" = A ]; then
    printf '%s' "$payload" | base64 -d > /ssr/prepare.diff
    if [ -s /ssr/prepare.diff ]; then git apply --whitespace=nowarn /ssr/prepare.diff > /ssr/prepare.out 2>&1; else true; fi
  else
    p=$(printf '%s' "$payload" | base64 -d)
    if git cat-file -e "HEAD:$p" 2>/dev/null; then git --literal-pathspecs restore --source=HEAD --worktree -- "$p" > /ssr/prepare.out 2>&1
    else rm -rf -- "$p" > /ssr/prepare.out 2>&1; fi
  fi
  rc=$?
  if [ "$rc" -ne 0 ]; then echo "SSR-PREPARE-FAILED $i $rc"; base64 -w0 /ssr/prepare.out; echo; exit 0; fi
done
`;

/** What the steps leave behind: the driver removes them with its own files (one `rm` fewer per run). */
export const PREPARE_FILES = ['/ssr/prepare.diff', '/ssr/prepare.out'] as const;

/** The driver's report of a failed step, or undefined when its output has none. */
export function readPrepareFailure(output: string): PrepareFailure | undefined {
  const lines = output.split('\n');
  const at = lines.findIndex((line) => line.startsWith('SSR-PREPARE-FAILED '));
  if (at < 0) return undefined;
  const [step, exitCode] = lines[at]!.split(' ').slice(1).map(Number);
  if (!Number.isInteger(step) || !Number.isInteger(exitCode)) return undefined;
  return { step: step!, exitCode: exitCode!, output: Buffer.from(lines[at + 1] ?? '', 'base64').toString('utf8') };
}
