import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { execMustSucceed } from '../workspace/exec-checked.js';

/** Every tracked file of O (`git ls-files -z` of the pinned commit), from a throwaway sandbox. */
export async function listOriginalFiles(provider: SandboxProvider, template: SandboxTemplate): Promise<ReadonlySet<string>> {
  const sandbox = await provider.acquire(template);
  try {
    const result = await execMustSucceed(sandbox, 'listing the original files', 'git ls-files -z', { maxOutputBytes: 64 * 1024 * 1024 });
    return new Set(result.output.split('\0').filter((path) => path !== ''));
  } finally {
    await sandbox.dispose().catch(() => undefined);
  }
}
