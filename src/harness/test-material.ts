import { z } from 'zod';
import { TEST_USER_UID } from '../sandbox/sandbox.js';

/**
 * Test material cannot change during a run (issue 23, item 1). Every test file of the repo and
 * the runners' configuration (which files: guard/ssr_test_material.py) are hashed before the test
 * script runs and again after it; a file that changed, vanished or appeared is tampering. Where
 * the driver runs as root (Docker, a root pod) the script runs as an unprivileged user
 * ({@link MATERIAL_RUN_UID}) that owns the rest of the repo but not the material, which is
 * read-only in sticky folders: a write is refused outright (ssr's images already give the repo to
 * that user, so a run changes the owner of only what the image did not have). Where there is one user only
 * (bubblewrap, a non-root pod) the material is made read-only, which its owner could undo, and
 * the hashes decide. Runner-independent: the test driver does it for every guarded run, pytest
 * or JS alike (see {@link materialLockSnippet} / {@link materialCheckSnippet}).
 */

/** The helper's module name; it ships as `<guard dir>/p/<name>.py`. */
export const MATERIAL_MODULE = 'ssr_test_material';
/** The unprivileged user the test script runs as when the driver is root (Debian's `nobody`). */
export const MATERIAL_RUN_UID = TEST_USER_UID;

/** How the material was protected in one run. */
export const materialModeSchema = z.enum(['read-only', 'hash-only', 'unavailable']);
export type MaterialMode = z.infer<typeof materialModeSchema>;

/** What the lock saw: how it protected the material, and what changed (`changed <path>`, `removed <path>`, `added <path>`). */
export interface MaterialReport {
  mode: MaterialMode;
  changes: string[];
}

/**
 * Bash that decides how the material of the repo in `$PWD` is locked, given `$g_dir` (a folder
 * holding `p/<module>.py` and the empty 0700 `m/`, see guard-setup.ts) and the supervisor's words
 * in the array `sup`. The supervisor locks it before the script and checks it after, in its own
 * process (guard/ssr_guard_supervisor.py `--material`: no interpreter of its own for either).
 * Sets the array `run_as` (the prefix that runs the script as the unprivileged user, empty when
 * there is one user only; the supervisor leaves it off when the lock fails), extends `run_env`
 * and appends the `--material` words and `--` to `sup`.
 */
export function materialLockSnippet(): string {
  const uid = MATERIAL_RUN_UID;
  const drop = `setpriv --reuid=${uid} --regid=${uid} --clear-groups`;
  return `
m_owner=-; run_as=()
if [ "$EUID" = 0 ] && command -v setpriv >/dev/null 2>&1 && ${drop} true 2>/dev/null; then
  m_owner=${uid}:${uid}; run_as=(${drop})
  # git refuses a worktree owned by another user; the tests' own git calls must keep working.
  run_env+=(GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*')
fi
sup+=(--material "$PWD" "$g_dir/m" "$m_owner" "\${#run_as[@]}" --)
`;
}

/**
 * Bash that reads what the supervisor's lock and check left (after the script ran): `m_mode`,
 * the changes in the array `m_lines`, and the script's own start and end (`t0`, `t1`, ns) when
 * the supervisor timed it. No mode file (the supervisor failed): unavailable.
 */
export function materialCheckSnippet(): string {
  return `
m_mode=unavailable; [ -f "$g_dir/m/mode" ] && read -r m_mode < "$g_dir/m/mode"
[ -f "$g_dir/m/time" ] && read -r t0 t1 < "$g_dir/m/time"
m_lines=(); [ "$m_mode" != unavailable ] && [ -f "$g_dir/m/out" ] && mapfile -t -n 200 m_lines < "$g_dir/m/out"
`;
}

/** Bash that prints the section: `SSR-MATERIAL <mode> <lines>`, then one base64 line per change. */
export function materialSectionSnippet(): string {
  return `
echo "SSR-MATERIAL $m_mode \${#m_lines[@]}"
for line in \${m_lines[@]+"\${m_lines[@]}"}; do printf '%s' "$line" | base64 -w0; echo; done
`;
}

/** The SSR-MATERIAL section of the driver's output, or undefined when there is none (an unguarded run). */
export function readMaterialSection(lines: readonly string[]): MaterialReport | undefined {
  const at = lines.findIndex((line) => line.startsWith('SSR-MATERIAL '));
  if (at < 0) return undefined;
  const [, mode, count] = lines[at]!.split(' ');
  const parsed = materialModeSchema.safeParse(mode);
  const n = Number(count);
  if (!parsed.success || !Number.isInteger(n) || n < 0) return undefined;
  const changes = lines.slice(at + 1, at + 1 + n).map((line) => Buffer.from(line, 'base64').toString('utf8'));
  return { mode: parsed.data, changes };
}
