import type { Sandbox } from '../sandbox/sandbox.js';
import { restoreFiles, type RestoreOutcome } from './restore-files.js';

export { restoreFiles } from './restore-files.js';

/**
 * Put one file back to its content at HEAD (the original state O), or delete it when it did not
 * exist at HEAD. Used by inverse-redundancy checks (revert one changed file of a bug).
 */
export async function revertFile(sandbox: Sandbox, path: string): Promise<RestoreOutcome> {
  const { outcomes } = await restoreFiles(sandbox, [path]);
  return outcomes[0]!.outcome;
}
