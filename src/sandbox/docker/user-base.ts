import type Docker from 'dockerode';
import { EngineError, errorMessage } from '../../util/engine-error.js';
import { dockerError } from './docker-client.js';

/**
 * The image id of a user's `image.base` (e.g. a SWE-bench environment image), pulled when it is
 * not on the machine. Its id, not its name, keys the repo image: a re-tagged base rebuilds.
 */
export async function userBaseId(docker: Docker, ref: string): Promise<string> {
  const inspect = () => docker.getImage(ref).inspect();
  try {
    return (await inspect()).Id;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw dockerError(`inspecting image.base ${ref}`, error);
  }
  try {
    const stream = await docker.pull(ref);
    await new Promise<void>((resolve, reject) => docker.modem.followProgress(stream, (failure: Error | null) => (failure ? reject(failure) : resolve())));
    return (await inspect()).Id;
  } catch (error) {
    throw new EngineError('config-invalid', `image.base ${ref}: no such image on this machine, and pulling it failed (${errorMessage(error).split('\n')[0]}): build or load it first (docker build / docker load / docker pull)`);
  }
}

/** Run a POSIX sh script in a running container (no bash assumed): its output and exit code. */
async function runSh(container: Docker.Container, script: string): Promise<{ exitCode: number; output: string }> {
  const exec = await container.exec({ Cmd: ['sh', '-c', script], AttachStdout: true, AttachStderr: true, Tty: true });
  const stream = await exec.start({ hijack: true, stdin: false, Tty: true });
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  const info = await exec.inspect();
  return { exitCode: info.ExitCode ?? -1, output: Buffer.concat(chunks).toString('utf8') };
}

/** What a sandbox needs, each as a check printing "missing: <what> (<why>)". */
const BEFORE_SETUP = [
  ['bash', 'command -v bash', 'every command runs in bash'],
  ['timeout', 'command -v timeout', 'coreutils timeout bounds every command'],
] as const;
const AFTER_SETUP = [
  ['python3', 'command -v python3', 'the test parser and the grading guard run in python3'],
  ['pytest', 'python3 -c "import pytest"', 'the default test script runs python3 -m pytest'],
  ['git', 'command -v git', 'ssr resets, diffs and re-initialises /repo with git'],
  ['patch', 'command -v patch', 'diffs that git apply refuses fall back to patch --fuzz'],
] as const;

async function requireTools(container: Docker.Container, ref: string, checks: ReadonlyArray<readonly [string, string, string]>, when: string): Promise<void> {
  const script = checks.map(([name, check, why]) => `${check} >/dev/null 2>&1 || echo "missing: ${name} (${why})"`).join('\n');
  let result: { exitCode: number; output: string };
  try {
    result = await runSh(container, script);
  } catch (error) {
    throw dockerError(`checking image.base ${ref}`, error);
  }
  const missing = result.output.split(/\r?\n/).filter((line) => line.startsWith('missing: ')).map((line) => line.slice('missing: '.length));
  if (result.exitCode !== 0 && missing.length === 0) {
    throw new EngineError('image-build-failed', `image.base ${ref}: cannot run sh in it (exit ${result.exitCode}): ${result.output.slice(-500)}`);
  }
  if (missing.length > 0) {
    throw new EngineError(
      'config-invalid',
      `image.base ${ref} lacks what an ssr sandbox needs ${when}:\n  - ${missing.join('\n  - ')}\n` +
        'install it in the image (a Dockerfile FROM it), or with a setup step (e.g. { pip: pytest }); python3 on the image\'s PATH is the one used',
    );
  }
}

/** Before any setup step: a shell ssr can drive, and /repo empty (a user image may ship its own copy there). */
export async function prepareUserBase(container: Docker.Container, ref: string): Promise<void> {
  await requireTools(container, ref, BEFORE_SETUP, 'to run any command');
  await runSh(container, 'mkdir -p /repo && find /repo -mindepth 1 -delete');
}

/** After the setup steps: the harness's tools, then ssr's git identity and settings (those of its own base rootfs). */
export async function finishUserBase(container: Docker.Container, ref: string): Promise<void> {
  await requireTools(container, ref, AFTER_SETUP, 'after the setup steps');
  const git = [
    'git config --system user.name ssr',
    'git config --system user.email ssr@localhost',
    "git config --system --replace-all safe.directory '*'",
    'git config --system init.defaultBranch main',
    'git config --system advice.detachedHead false',
  ].join(' && ');
  const result = await runSh(container, git).catch((error: unknown) => Promise.reject(dockerError(`configuring git in image.base ${ref}`, error)));
  if (result.exitCode !== 0) throw new EngineError('image-build-failed', `image.base ${ref}: git config --system failed: ${result.output.slice(-500)}`);
}
