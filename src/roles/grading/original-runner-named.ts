import type { Sandbox } from '../../sandbox/sandbox.js';
import { EngineError } from '../../util/engine-error.js';
import { isFileNamingConfig, runnerNamedFiles } from './runner-named-files.js';

/** A config larger than this is not hand-written configuration; it is skipped. */
const MAX_CONFIG_BYTES = 256 * 1024;

/**
 * The files the runner configs of the sandbox's tree (the ORIGINAL one: call this before any
 * patch is applied) name as setup files, reporters and other machinery (runner-named-files.ts).
 * One `git ls-files` and a read per config, none for a repo without JS runner configs.
 * @throws EngineError `sandbox-failed` when the sandbox cannot list or read them (infrastructure).
 */
export async function originalRunnerNamedFiles(sandbox: Sandbox): Promise<Set<string>> {
  const listed = await sandbox.exec('git ls-files -z 2>/dev/null');
  if (listed.exitCode !== 0) throw new EngineError('sandbox-failed', `listing the repository's files in the grading sandbox failed: ${listed.output.slice(-200)}`, { retryable: true });
  const configs = listed.output.split('\0').filter((path) => path !== '' && isFileNamingConfig(path));
  const texts: Array<{ path: string; text: string }> = [];
  for (const path of configs) {
    const text = (await sandbox.readFile(path)).toString('utf8');
    if (text.length <= MAX_CONFIG_BYTES) texts.push({ path, text });
  }
  return runnerNamedFiles(texts);
}
