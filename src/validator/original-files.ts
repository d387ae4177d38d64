import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { execMustSucceed } from '../workspace/exec-checked.js';

/** Every tracked file of the sandbox's repository (`git ls-files -z`): O's files in a sandbox still at O. */
export async function listFilesIn(sandbox: Sandbox): Promise<ReadonlySet<string>> {
  const result = await execMustSucceed(sandbox, 'listing the original files', 'git ls-files -z', { maxOutputBytes: 64 * 1024 * 1024 });
  return new Set(result.output.split('\0').filter((path) => path !== ''));
}

/** Every tracked file of O (`git ls-files -z` of the pinned commit), from a throwaway sandbox. */
export async function listOriginalFiles(provider: SandboxProvider, template: SandboxTemplate): Promise<ReadonlySet<string>> {
  const sandbox = await provider.acquire(template);
  try {
    return await listFilesIn(sandbox);
  } finally {
    await sandbox.dispose().catch(() => undefined);
  }
}
