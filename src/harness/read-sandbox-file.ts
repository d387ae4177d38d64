import type { Sandbox } from '../sandbox/sandbox.js';
import { EngineError } from '../util/engine-error.js';
import { shellQuote } from '../util/shell-quote.js';
import { execInfra, execMustSucceed } from '../workspace/exec-checked.js';

/** True sizes of files in the sandbox, in bytes; a missing file counts 0. One exec for all. */
export async function statSizes(sandbox: Sandbox, paths: readonly string[]): Promise<number[]> {
  const command = paths.map((path) => `stat -c %s -- ${shellQuote(path)} 2>/dev/null || echo 0`).join('; ');
  const result = await execMustSucceed(sandbox, 'measuring files', command);
  const sizes = result.output.trim().split(/\s+/).map(Number);
  if (sizes.length !== paths.length || sizes.some((size) => !Number.isSafeInteger(size) || size < 0)) {
    throw new EngineError('sandbox-failed', `measuring files: unexpected output ${JSON.stringify(result.output.slice(0, 200))}`);
  }
  return sizes;
}

/** The last `bytes` bytes of a file, decoded as UTF-8 (empty when missing). */
export async function readTail(sandbox: Sandbox, path: string, bytes: number): Promise<string> {
  const result = await execInfra(sandbox, `reading the end of ${path}`, `tail -c ${bytes} -- ${shellQuote(path)} 2>/dev/null || true`, {
    maxOutputBytes: bytes + 1024,
  });
  return result.output;
}
