import type { ResolvedRepo } from '../config/resolve-repo.js';
import type { SandboxLimits } from './sandbox.js';

/** The sandbox limits of a repo (repos.yaml names, in the contract's units). */
export function limitsOf(repo: ResolvedRepo): SandboxLimits {
  return { memoryMb: repo.limits.memory_mb, cpus: repo.limits.cpus, pids: repo.limits.pids };
}
