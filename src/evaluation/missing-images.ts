import { EngineError } from '../util/engine-error.js';
import type { EvalInstance } from './eval-instance.js';

/**
 * The images named by the set's instances (each once) that `exists` does not find.
 */
export async function missingImages(instances: readonly EvalInstance[], exists: (ref: string) => Promise<boolean>): Promise<string[]> {
  const refs = [...new Set(instances.flatMap((instance) => (instance.userImage ? [instance.userImage] : [])))].sort();
  const found = await Promise.all(refs.map(exists));
  return refs.filter((_, i) => !found[i]);
}

/**
 * Refuse a set that names images this machine does not have, before any episode: each one
 * listed with the instances that need it.
 * @throws EngineError `usage`.
 */
export async function refuseMissingImages(instances: readonly EvalInstance[], exists: (ref: string) => Promise<boolean>): Promise<void> {
  const missing = await missingImages(instances, exists);
  if (missing.length === 0) return;
  const lines = missing.map((ref) => {
    const users = instances.filter((instance) => instance.userImage === ref).map((instance) => instance.instanceId);
    return `  ${ref} (${users.slice(0, 3).join(', ')}${users.length > 3 ? `, +${users.length - 3} more` : ''})`;
  });
  throw new EngineError('usage', `the eval set names ${missing.length} image(s) that do not exist on this machine; pull or build them (docker pull / docker load), then rerun:\n${lines.join('\n')}`);
}
