import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCRATCH_DIR } from '../sandbox/sandbox.js';
import { harnessAssetDir } from './default-files.js';
import { MATERIAL_MODULE } from './test-material.js';
import { packEntries, type TarEntry } from '../sandbox/docker/tar.js';

/** The plugin's module name: what `-p` loads; the file ships as `<dir>/p/<name>.py`. */
export const GUARD_MODULE = 'ssr_grading_guard';
/** Its start-up half (guard/usercustomize.py): asks pytest processes to load the plugin. */
export const GUARD_BOOT_MODULE = 'usercustomize';
/** The other modules the test process imports (p/): the audit hook and the test-code check. */
export const GUARD_HELPER_MODULES = ['ssr_guard_audit', 'ssr_guard_code'] as const;
/** The supervisor (guard/ssr_guard_supervisor.py): runs the script, holds the key, signs records; ships as `<dir>/s/<name>.py`. */
export const GUARD_SUPERVISOR_MODULE = 'ssr_guard_supervisor';

/** One run's guard: where it lives in the sandbox and the key its records are signed with. */
export interface GuardRun {
  /** A fresh folder under the scratch dir, named at random so repo code cannot guess it. */
  dir: string;
  /** HMAC key of this run's records (hex): only the supervisor, outside the test process, sees it. */
  key: string;
  /** The stdin line the test driver reads: `<dir> <key> <the guard's folder as a tar, base64>` (see guardBundle). */
  stdinLine: string;
}

/** Python versions whose user site (`u/lib/python3.X/site-packages`) points at the guard's modules. */
const USER_SITE_VERSIONS = [6, 7, 8, 9, 10, 11, 12, 13, 14];

let bundle: Promise<string> | undefined;

/**
 * The guard's whole folder as one tar archive, base64, built once per process: the modules in
 * `p/` (also every Python 3 version's user site, through links under `u/`), the supervisor in
 * `s/`, the empty `o/` (records) and `m/` (test-material state), both 0700 like `s/`, and the
 * guard's `conf`. The driver unpacks it with one `tar` instead of a mkdir, chmod, ln or base64
 * process per entry (some thirty process starts per run: most of the guard's fixed cost in the
 * driver). Nothing in it depends on the run; the run's random folder and key travel beside it.
 */
export function guardBundle(): Promise<string> {
  bundle ??= (async () => {
    const read = (module: string): Buffer => readFileSync(join(harnessAssetDir('guard'), `${module}.py`));
    const entries: TarEntry[] = [
      { name: 'p', type: 'directory', mode: 0o755 },
      ...[GUARD_MODULE, GUARD_BOOT_MODULE, MATERIAL_MODULE, ...GUARD_HELPER_MODULES].map((module): TarEntry => ({ name: `p/${module}.py`, type: 'file', mode: 0o644, content: read(module) })),
      { name: 's', type: 'directory', mode: 0o700 },
      { name: `s/${GUARD_SUPERVISOR_MODULE}.py`, type: 'file', mode: 0o644, content: read(GUARD_SUPERVISOR_MODULE) },
      { name: 'o', type: 'directory', mode: 0o700 },
      { name: 'm', type: 'directory', mode: 0o700 },
      { name: 'conf', type: 'file', mode: 0o644, content: Buffer.from('{"version": 2}') },
      { name: 'u', type: 'directory', mode: 0o755 },
      { name: 'u/lib', type: 'directory', mode: 0o755 },
      ...USER_SITE_VERSIONS.flatMap((v): TarEntry[] => [
        { name: `u/lib/python3.${v}`, type: 'directory', mode: 0o755 },
        { name: `u/lib/python3.${v}/site-packages`, type: 'symlink', mode: 0o777, linkname: '../../../p' },
      ]),
    ];
    return (await packEntries(entries)).toString('base64');
  })();
  return bundle;
}

/** A new guard for one test run: a random folder and key, never reused. */
export async function newGuardRun(): Promise<GuardRun> {
  const dir = `${SCRATCH_DIR}/.g${randomBytes(12).toString('hex')}`;
  const key = randomBytes(32).toString('hex');
  return { dir, key, stdinLine: `${dir} ${key} ${await guardBundle()}\n` };
}
