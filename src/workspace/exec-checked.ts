import { randomUUID } from 'node:crypto';
import type { ExecOptions, ExecResult, Sandbox } from '../sandbox/sandbox.js';
import { SCRATCH_DIR } from '../sandbox/sandbox.js';
import { EngineError, errorMessage, isEngineError } from '../util/engine-error.js';

/**
 * Run a command in a sandbox, turning a sandbox that cannot run it at all (container gone,
 * bwrap missing) into `EngineError('sandbox-failed')`. Exit codes and timeouts stay data.
 */
export async function execWrapped(sandbox: Sandbox, what: string, command: string, options?: ExecOptions): Promise<ExecResult> {
  try {
    return await sandbox.exec(command, options);
  } catch (error) {
    if (isEngineError(error)) throw error;
    throw new EngineError('sandbox-failed', `${what}: the sandbox could not run the command: ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * Run a command the engine itself needs (git plumbing, file moves): like {@link execWrapped},
 * and a plumbing command that hangs past its limit is an infrastructure failure too.
 * The exit code is left to the caller.
 */
export async function execInfra(sandbox: Sandbox, what: string, command: string, options?: ExecOptions): Promise<ExecResult> {
  const result = await execWrapped(sandbox, what, command, options);
  if (result.timedOut) throw new EngineError('sandbox-failed', `${what}: timed out after ${result.durationMs} ms`, { retryable: true });
  return result;
}

/** Like {@link execInfra}, and a non-zero exit is an infrastructure failure too (the command must work). */
export async function execMustSucceed(sandbox: Sandbox, what: string, command: string, options?: ExecOptions): Promise<ExecResult> {
  const result = await execInfra(sandbox, what, command, options);
  if (result.exitCode !== 0) {
    throw new EngineError('sandbox-failed', `${what}: exit ${result.exitCode}: ${result.output.slice(-2000).trim()}`);
  }
  return result;
}

/** A fresh file name under the scratch dir, so concurrent operations never share a temp file. */
export function scratchFile(stem: string, extension: string): string {
  const safe = stem.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 60) || 'tmp';
  return `${SCRATCH_DIR}/tmp/${safe}-${randomUUID().slice(0, 8)}${extension}`;
}

/** Bytes the engine writes itself (patches, path lists); wraps a failing write as sandbox-failed. */
export async function writeInfra(sandbox: Sandbox, path: string, content: string | Buffer): Promise<void> {
  try {
    await sandbox.writeFile(path, content);
  } catch (error) {
    if (isEngineError(error)) throw error;
    throw new EngineError('sandbox-failed', `writing ${path} into the sandbox failed: ${errorMessage(error)}`, { cause: error });
  }
}

/** Read back a file the engine's own command wrote; wraps a failing read as sandbox-failed. */
export async function readInfra(sandbox: Sandbox, path: string): Promise<Buffer> {
  try {
    return await sandbox.readFile(path);
  } catch (error) {
    if (isEngineError(error) && error.code !== 'artifact-invalid-input') throw error;
    throw new EngineError('sandbox-failed', `reading ${path} from the sandbox failed: ${errorMessage(error)}`, { cause: error });
  }
}
