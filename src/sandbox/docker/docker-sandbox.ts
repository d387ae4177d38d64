import { randomUUID } from 'node:crypto';
import { posix } from 'node:path';
import type Docker from 'dockerode';
import { EngineError } from '../../util/engine-error.js';
import { checkExecOptions } from '../check-exec-options.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../output-cap.js';
import { REPO_DIR, SCRATCH_DIR, type ExecOptions, type ExecResult, type Sandbox } from '../sandbox.js';
import { dockerError, dockerStatus } from './docker-client.js';
import { runDockerExec } from './exec-stream.js';
import { packFile, readSingleFile } from './tar.js';
import { stdinAsEnv } from './stdin-env.js';
import { dockerMemoryCgroupDirs, readOomKills } from '../oom-kills.js';

const DEFAULT_TIMEOUT_MS = 120_000;

/** Absolute path inside the sandbox; relative paths are relative to the repository. */
function inSandbox(path: string): string {
  return posix.resolve(REPO_DIR, path);
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A sandbox that is one running container (see DockerProvider for how it is created). */
export class DockerSandbox implements Sandbox {
  readonly backend = 'docker' as const;
  readonly id: string;
  private disposed?: Promise<void>;

  constructor(private readonly container: Docker.Container) {
    this.id = container.id.slice(0, 12);
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    this.assertLive();
    checkExecOptions(options);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let run = command;
    let env = options.env ?? {};
    const inRequest = options.stdin === undefined ? undefined : stdinAsEnv(options.stdin);
    if (inRequest) {
      run = `${inRequest.prefix}${command}`;
      env = { ...env, ...inRequest.env };
    } else if (options.stdin !== undefined) {
      // Stdin travels in the request (small text, stdin-env.ts) or as a file, never over the
      // hijacked exec stream: under load the engine can start the process before it copies the
      // stream, and the first bytes are lost (seen with Docker 20.10: a patch applied without its
      // first file section).
      const file = `${SCRATCH_DIR}/.stdin-${randomUUID()}`;
      await this.writeFile(file, Buffer.from(options.stdin), { mode: 0o600 });
      run = `exec < ${file}; rm -f ${file}; ${command}`;
    }
    const result = await runDockerExec(this.container, {
      command: run,
      cwd: inSandbox(options.cwd ?? REPO_DIR),
      env,
      timeoutMs: Math.max(1, Math.round(timeoutMs)),
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      ...(options.skipExitCode ? { skipExitCode: true } : {}),
    });
    // Killed by dispose (the container went away under it): no exit code of its own, as on bwrap.
    return this.disposed && !result.timedOut ? { ...result, exitCode: null } : result;
  }

  async readFile(path: string): Promise<Buffer> {
    this.assertLive();
    const target = inSandbox(path);
    let archive: NodeJS.ReadableStream;
    try {
      archive = await this.container.getArchive({ path: target });
    } catch (error) {
      if (dockerStatus(error) === 404) throw new EngineError('sandbox-failed', `readFile: no such file in sandbox ${this.id}: ${target}`);
      throw dockerError(`readFile ${target}`, error);
    }
    try {
      return await readSingleFile(archive, target);
    } catch (error) {
      throw new EngineError('sandbox-failed', `readFile: ${(error as Error).message}`, { cause: error });
    }
  }

  async writeFile(path: string, content: string | Buffer, options: { mode?: number } = {}): Promise<void> {
    this.assertLive();
    const target = inSandbox(path);
    const archive = await packFile(posix.basename(target), Buffer.from(content), options.mode ?? 0o644);
    const put = (): Promise<unknown> => this.container.putArchive(archive, { path: posix.dirname(target) });
    try {
      await put();
    } catch (error) {
      if (dockerStatus(error) !== 404) throw dockerError(`writeFile ${target}`, error);
      // Parents are created only when missing: the fast path is a single request.
      const mkdir = await this.exec(`mkdir -p -- ${shellQuote(posix.dirname(target))}`, { timeoutMs: 30_000 });
      if (mkdir.exitCode !== 0) throw new EngineError('sandbox-failed', `writeFile ${target}: cannot create parent: ${mkdir.output.trim()}`);
      await put().catch((retryError: unknown) => Promise.reject(dockerError(`writeFile ${target}`, retryError)));
    }
  }

  async oomKills(): Promise<number | null> {
    const counted = await readOomKills(dockerMemoryCgroupDirs(this.container.id));
    if (counted !== null) return counted;
    // A remote engine: its own flag, which only covers the container's main process.
    const state = await this.container.inspect().then((info) => info.State, () => null);
    return state === null ? null : state.OOMKilled ? 1 : 0;
  }

  /** Remove the container. Idempotent, and tolerant of a container that is already gone. */
  dispose(): Promise<void> {
    this.disposed ??= this.container.remove({ force: true, v: true }).then(
      () => undefined,
      (error: unknown) => {
        const status = dockerStatus(error);
        // 404: already removed; 409: a removal is already in progress.
        if (status === 404 || status === 409) return;
        this.disposed = undefined;
        throw dockerError(`dispose sandbox ${this.id}`, error);
      },
    );
    return this.disposed;
  }

  private assertLive(): void {
    if (this.disposed) throw new EngineError('sandbox-failed', `sandbox ${this.id} was disposed`);
  }
}
