import type Docker from 'dockerode';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { ProgressSink } from '../../util/progress.js';
import { EngineError } from '../../util/engine-error.js';
import type { PackageIndexAccess } from '../images/package-index.js';
import { buildStep } from '../images/setup-step.js';
import { copyScanScript, parseCopyScan, refuseCodeCopies, copySummaries, SETUP_MARKER } from '../images/copy-scan.js';
import { npmFailureHint } from '../images/npm-failure.js';
import { npmRegistryEnv } from '../images/npm-registry-env.js';
import { REPO_DIR, TEST_USER_UID } from '../sandbox.js';
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

/**
 * The last step before the commit: the repo goes to the test user ({@link TEST_USER_UID}), as a
 * guarded test run needs it (harness/test-material.ts). Done once here, not per run: on overlayfs
 * a file whose owner changes is copied whole into the container's own layer, so a `chown -R` in
 * every fresh sandbox cost 0.3 s (pyledger) to 5 s (numeral) per test run. Root, which every other
 * command in a sandbox runs as, still writes everything; git is told the repo is safe
 * (`safe.directory`, set by the base image and for a user's `image.base`).
 */
export async function giveRepoToTestUser(container: Docker.Container, repo: ResolvedRepo): Promise<void> {
  const owner = `${TEST_USER_UID}:${TEST_USER_UID}`;
  const result = await runDockerExec(container, { command: `chown -R --no-dereference ${owner} ${REPO_DIR}`, cwd: '/', env: {}, timeoutMs: SETUP_TIMEOUT_MS, maxOutputBytes: 16 * 1024 });
  if (result.exitCode !== 0) throw new EngineError('image-build-failed', `${repo.id}: giving ${REPO_DIR} to the test user (chown -R ${owner}) failed (exit ${result.exitCode}): ${result.output.slice(-TAIL_CHARS)}`);
}
