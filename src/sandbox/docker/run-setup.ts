import type Docker from 'dockerode';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { ProgressSink } from '../../util/progress.js';
import { EngineError } from '../../util/engine-error.js';
import type { PackageIndexAccess } from '../images/package-index.js';
import { buildStep } from '../images/setup-step.js';
import { copyScanScript, parseCopyScan, refuseCodeCopies, copySummaries, SETUP_MARKER } from '../images/copy-scan.js';
import { npmFailureHint } from '../images/npm-failure.js';
import { npmRegistryEnv } from '../images/npm-registry-env.js';
import { REPO_DIR } from '../sandbox.js';
import { runDockerExec } from './exec-stream.js';

/** Setup commands (pip installs, builds) may be slow, but not unbounded. */
const SETUP_TIMEOUT_MS = 30 * 60_000;
const TAIL_CHARS = 4000;

/**
 * Run a recipe's setup steps in order inside the build container; the first failure fails the
 * build with the step's repos.yaml line, its command and its output tail. A marker file dates
 * what the steps create, for removeCodeCopies.
 */
export async function runSetup(container: Docker.Container, repo: ResolvedRepo, index: PackageIndexAccess, progress: ProgressSink): Promise<void> {
  const steps = repo.image.setup.map(buildStep);
  if (steps.length === 0) return;
  await runDockerExec(container, { command: `touch ${SETUP_MARKER}`, cwd: '/', env: {}, timeoutMs: 60_000, maxOutputBytes: 4096 });
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

/**
 * After the setup steps (and, for a user's image.base, after its tools were checked): no copy of
 * the repo's code may be left beside it (see copyScanScript). Copies in /repo's build outputs are
 * deleted; any other refuses the build.
 */
export async function removeCodeCopies(container: Docker.Container, repo: ResolvedRepo, progress: ProgressSink): Promise<void> {
  if (repo.image.setup.length === 0) return;
  const result = await runDockerExec(container, { command: copyScanScript({ outside: true }), cwd: REPO_DIR, env: {}, timeoutMs: SETUP_TIMEOUT_MS, maxOutputBytes: 256 * 1024 });
  const scan = parseCopyScan(result.output, result.exitCode, repo.id);
  for (const message of copySummaries(scan)) progress({ stage: 'setup', message });
  refuseCodeCopies(scan, repo.id);
}
