import type Docker from 'dockerode';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { ProgressSink } from '../../util/progress.js';
import { EngineError } from '../../util/engine-error.js';
import type { PackageIndexAccess } from '../images/package-index.js';
import { buildStep } from '../images/setup-step.js';
import { npmFailureHint } from '../images/npm-failure.js';
import { npmRegistryEnv } from '../images/npm-registry-env.js';
import { REPO_DIR } from '../sandbox.js';
import { runDockerExec } from './exec-stream.js';

/** Setup commands (pip installs, builds) may be slow, but not unbounded. */
const SETUP_TIMEOUT_MS = 30 * 60_000;
const TAIL_CHARS = 4000;

/**
 * Run a recipe's setup steps in order inside the build container; the first failure fails the
 * build with the step's repos.yaml line, its command and its output tail.
 */
export async function runSetup(container: Docker.Container, repo: ResolvedRepo, index: PackageIndexAccess, progress: ProgressSink): Promise<void> {
  const steps = repo.image.setup.map(buildStep);
  for (const [position, step] of steps.entries()) {
    progress({ stage: 'setup', message: `[${position + 1}/${steps.length}] ${step.label}`, fraction: position / steps.length });
    const indexEnv = step.tool === 'pip' ? index.pipEnv : step.tool === 'uv' ? index.uvEnv : step.tool === 'npm' ? npmRegistryEnv() : {};
    const env = { ...indexEnv, ...step.env };
    const result = await runDockerExec(container, { command: step.command, cwd: REPO_DIR, env, timeoutMs: SETUP_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
    if (result.exitCode !== 0) {
      const why = result.timedOut ? `timed out after ${SETUP_TIMEOUT_MS / 1000} s` : `exited with ${result.exitCode}`;
      const origin = repo.setupOrigins?.[position] ?? `${repo.id}: image.setup[${position}]`;
      const hint = step.tool === 'npm' ? npmFailureHint(result.output) : undefined;
      const indexLine = step.tool === 'pip' || step.tool === 'uv' ? `\n${index.summary}` : hint ? `\n${hint}` : '';
      throw new EngineError('image-build-failed', `${origin}: setup step \`${step.label}\` ${why}${indexLine}\noutput tail:\n${result.output.slice(-TAIL_CHARS)}`);
    }
  }
}
