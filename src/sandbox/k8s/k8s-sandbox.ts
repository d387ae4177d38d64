import { randomUUID } from 'node:crypto';
import { posix } from 'node:path';
import { EngineError } from '../../util/engine-error.js';
import { checkExecOptions } from '../check-exec-options.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../output-cap.js';
import { REPO_DIR, SCRATCH_DIR, type ExecOptions, type ExecResult, type Sandbox } from '../sandbox.js';
import { deletePod } from './delete-pod.js';
import type { K8sCluster } from './k8s-cluster.js';
import { copyIntoPod, copyOutOfPod } from './k8s-copy.js';
import { runK8sExec } from './k8s-exec.js';

const DEFAULT_TIMEOUT_MS = 120_000;

/** Absolute path inside the sandbox; relative paths are relative to the repository. */
function inSandbox(path: string): string {
  return posix.resolve(REPO_DIR, path);
}

/** A sandbox that is one running pod (see K8sProvider for how it is created). */
export class K8sSandbox implements Sandbox {
  readonly backend = 'k8s' as const;
  private disposed?: Promise<void>;

  constructor(
    private readonly cluster: K8sCluster,
    /** The pod's name. */
    readonly id: string,
  ) {}

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    this.assertLive();
    checkExecOptions(options);
    // Stdin travels as a file: the exec protocol cannot end a stream without ending the exec.
    let run = `exec </dev/null; ${command}`;
    if (options.stdin !== undefined) {
      const file = `${SCRATCH_DIR}/.stdin-${randomUUID()}`;
      await this.writeFile(file, Buffer.from(options.stdin), { mode: 0o600 });
      run = `exec < ${file}; rm -f ${file}; ${command}`;
    }
    const { result, lost } = await runK8sExec(this.cluster, this.id, {
      command: run,
      cwd: inSandbox(options.cwd ?? REPO_DIR),
      env: options.env ?? {},
      timeoutMs: Math.max(1, Math.round(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)),
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    });
    // Killed by dispose (the pod went away under it): no exit code of its own, as on Docker.
    if (this.disposed && !result.timedOut) return { ...result, exitCode: null };
    if (lost) throw new EngineError('sandbox-failed', `exec in pod ${this.id}: the connection closed without an exit status`, { retryable: true });
    return result;
  }

  async readFile(path: string): Promise<Buffer> {
    this.assertLive();
    return copyOutOfPod(this.cluster, this.id, inSandbox(path));
  }

  async writeFile(path: string, content: string | Buffer, options: { mode?: number } = {}): Promise<void> {
    this.assertLive();
    return copyIntoPod(this.cluster, this.id, inSandbox(path), Buffer.from(content), options.mode ?? 0o644);
  }

  /** Delete the pod and wait until it is gone. Idempotent. */
  dispose(): Promise<void> {
    this.disposed ??= deletePod(this.cluster, this.id).catch((error: unknown) => {
      this.disposed = undefined;
      throw error;
    });
    return this.disposed;
  }

  private assertLive(): void {
    if (this.disposed) throw new EngineError('sandbox-failed', `sandbox ${this.id} was disposed`);
  }
}
