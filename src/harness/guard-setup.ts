import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCRATCH_DIR } from '../sandbox/sandbox.js';
import { harnessAssetDir } from './default-files.js';
import { MATERIAL_MODULE } from './test-material.js';

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
  /**
   * The stdin line the test driver reads: `<dir> <key> <plugin> <start-up half> <test-material
   * lock> <audit hook> <test-code check> <supervisor>`, each file base64.
   */
  stdinLine: string;
}

let sources: string | undefined;

/** The guard's files (src/harness/guard/), base64, space-separated, in the stdin line's order; read once. */
function guardSourcesB64(): string {
  const read = (module: string): string => readFileSync(join(harnessAssetDir('guard'), `${module}.py`)).toString('base64');
  sources ??= [GUARD_MODULE, GUARD_BOOT_MODULE, MATERIAL_MODULE, ...GUARD_HELPER_MODULES, GUARD_SUPERVISOR_MODULE].map(read).join(' ');
  return sources;
}

/** A new guard for one test run: a random folder and key, never reused. */
export function newGuardRun(): GuardRun {
  const dir = `${SCRATCH_DIR}/.g${randomBytes(12).toString('hex')}`;
  const key = randomBytes(32).toString('hex');
  return { dir, key, stdinLine: `${dir} ${key} ${guardSourcesB64()}\n` };
}
