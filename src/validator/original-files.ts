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

/** Text read at most for the doctest files of O: beyond it the rest are left unread (treated as holding none). */
const DOCTEST_TEXT_BUDGET = 32 * 1024 * 1024;

/**
 * O's Python files that hold a `>>>` (doctest examples may be test code inside a code file), each
 * with its text: what the hunk classification of the diffs reads. The sandbox must still be at O.
 */
export async function readDoctestFilesIn(sandbox: Sandbox): Promise<ReadonlyMap<string, string>> {
  const listing = await execMustSucceed(sandbox, 'listing the original doctest files', "git grep -lz -F -e '>>>' -- '*.py' || true", { maxOutputBytes: 16 * 1024 * 1024 });
  const texts = new Map<string, string>();
  let budget = DOCTEST_TEXT_BUDGET;
  for (const path of listing.output.split('\0').filter((p) => p !== '')) {
    const text = (await sandbox.readFile(path)).toString('utf8');
    budget -= text.length;
    if (budget < 0) break;
    texts.set(path, text);
  }
  return texts;
}

/** {@link readDoctestFilesIn} from a throwaway sandbox (the reference path, or when no original run read them). */
export async function readOriginalDoctestFiles(provider: SandboxProvider, template: SandboxTemplate): Promise<ReadonlyMap<string, string>> {
  const sandbox = await provider.acquire(template);
  try {
    return await readDoctestFilesIn(sandbox);
  } finally {
    await sandbox.dispose().catch(() => undefined);
  }
}
