import type { Sandbox } from '../../sandbox/sandbox.js';
import { EngineError } from '../../util/engine-error.js';
import { isFileNamingConfig, runnerNamedFiles } from './runner-named-files.js';

/** The configs' names as git pathspec globs (isFileNamingConfig decides; these only keep the listing small in a big repo). */
const CONFIG_GLOBS = ['package.json', 'jest.config.*', 'vitest.config.*', 'vite.config.*', 'vitest.workspace.*', 'vitest.projects.*', '.mocharc*', '.taprc'];
/** A config larger than this is not hand-written configuration; it is skipped. */
const MAX_CONFIG_BYTES = 256 * 1024;

/**
 * The files the runner configs of the sandbox's tree (the ORIGINAL one: call this before any
 * patch is applied) name as setup files, reporters and other machinery (runner-named-files.ts).
 * One `git ls-files` (of config names only) and a read per config, none for a repo without JS runner configs.
 * @throws EngineError `sandbox-failed` when the sandbox cannot list or read them (infrastructure).
 */
export async function originalRunnerNamedFiles(sandbox: Sandbox): Promise<Set<string>> {
  const listed = await sandbox.exec(`git ls-files -z -- ${CONFIG_GLOBS.map((glob) => `':(glob)**/${glob}'`).join(' ')} 2>/dev/null`);
  if (listed.exitCode !== 0) throw new EngineError('sandbox-failed', `listing the repository's files in the grading sandbox failed: ${listed.output.slice(-200)}`, { retryable: true });
  const configs = listed.output.split('\0').filter((path) => path !== '' && isFileNamingConfig(path));
  const texts: Array<{ path: string; text: string }> = [];
  for (const path of configs) {
    const text = (await sandbox.readFile(path)).toString('utf8');
    if (text.length <= MAX_CONFIG_BYTES) texts.push({ path, text });
  }
  return runnerNamedFiles(texts);
}
