import type Docker from 'dockerode';
import type { ProgressSink } from '../../util/progress.js';
import { EngineError } from '../../util/engine-error.js';
import { REPO_DIR } from '../sandbox.js';
import { runDockerExec } from './exec-stream.js';

/** Setup commands (pip installs, builds) may be slow, but not unbounded. */
const SETUP_TIMEOUT_MS = 30 * 60_000;
const TAIL_CHARS = 4000;

/** Run a recipe's setup commands in order inside the build container; the first failure fails the build. */
export async function runSetup(container: Docker.Container, commands: readonly string[], progress: ProgressSink): Promise<void> {
  for (const [index, command] of commands.entries()) {
    progress({ stage: 'setup', message: command, fraction: index / commands.length });
    const result = await runDockerExec(container, { command, cwd: REPO_DIR, env: {}, timeoutMs: SETUP_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
    if (result.exitCode !== 0) {
      const why = result.timedOut ? `timed out after ${SETUP_TIMEOUT_MS / 1000} s` : `exited with ${result.exitCode}`;
      throw new EngineError('image-build-failed', `setup command \`${command}\` ${why}; output tail:\n${result.output.slice(-TAIL_CHARS)}`);
    }
  }
}
