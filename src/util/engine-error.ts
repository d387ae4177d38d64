/**
 * Machine-readable error codes for infrastructure and usage failures: they stop a command or discard
 * an episode, and never become a reward (method §4).
 * Tool mistakes and invalid artifacts are data, never an EngineError.
 */
export type EngineErrorCode =
  | 'usage'
  | 'config-invalid'
  | 'repo-not-found'
  | 'artifact-invalid-input'
  | 'sandbox-unavailable'
  | 'sandbox-failed'
  /** The engine's memory cgroup killed a process of the sandbox (the kernel's count, never an exit status). */
  | 'sandbox-oom'
  | 'image-build-failed'
  | 'docker-unavailable'
  | 'bwrap-unavailable'
  /** The Kubernetes API server of `--sandbox k8s` does not answer. */
  | 'k8s-unavailable'
  | 'disk-full'
  | 'policy-unavailable'
  /** The prompt (plus requested completion) does not fit the model's context window. */
  | 'policy-context-overflow'
  | 'internal';

/** An infrastructure or usage failure. `retryable` says whether the same call may succeed later. */
export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly retryable: boolean;

  constructor(code: EngineErrorCode, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'EngineError';
    this.code = code;
    this.retryable = options.retryable ?? false;
  }
}

export function isEngineError(error: unknown): error is EngineError {
  return error instanceof EngineError;
}

/** Best-effort message of any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
