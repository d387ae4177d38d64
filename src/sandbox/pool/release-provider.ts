import { errorMessage } from '../../util/engine-error.js';
import type { SandboxProvider } from '../sandbox.js';

/**
 * Dispose `provider` as a command ends (its warm pool, with `--warm`). A failure, such as an
 * engine that went away mid-run, is said through `warn` and not thrown: the command's own outcome
 * (a stopped, resumable run) stands, and the next run's sweep of dead owners' sandboxes removes
 * what is left.
 */
export async function releaseProvider(provider: Pick<SandboxProvider, 'dispose'>, warn: (line: string) => void): Promise<void> {
  try {
    await provider.dispose?.();
  } catch (error) {
    warn(`could not remove the sandboxes started ahead (--warm): ${errorMessage(error)}; the next run removes them`);
  }
}
