import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCRATCH_DIR } from '../sandbox/sandbox.js';
import { harnessAssetDir } from './default-files.js';

/** The plugin's module name: what `-p` loads; the file ships as `<dir>/p/<name>.py`. */
export const GUARD_MODULE = 'ssr_grading_guard';

/** One run's guard: where it lives in the sandbox and the key its records are signed with. */
export interface GuardRun {
  /** A fresh folder under the scratch dir, named at random so repo code cannot guess it. */
  dir: string;
  /** HMAC key of this run's records (hex). */
  key: string;
  /** The stdin line the test driver reads: `<dir> <key> <plugin source, base64>`. */
  stdinLine: string;
}

let pluginB64: string | undefined;

/** The guard plugin's source (src/harness/guard/ssr_grading_guard.py), read once. */
function guardPluginB64(): string {
  pluginB64 ??= readFileSync(join(harnessAssetDir('guard'), `${GUARD_MODULE}.py`)).toString('base64');
  return pluginB64;
}

/** A new guard for one test run: a random folder and key, never reused. */
export function newGuardRun(): GuardRun {
  const dir = `${SCRATCH_DIR}/.g${randomBytes(12).toString('hex')}`;
  const key = randomBytes(32).toString('hex');
  return { dir, key, stdinLine: `${dir} ${key} ${guardPluginB64()}\n` };
}
