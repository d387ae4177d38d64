import type { SandboxTemplate } from '../sandbox.js';

/** What makes two templates interchangeable: a sandbox started from one must fit the other. */
export function templateKey(template: SandboxTemplate): string {
  const { memoryMb, cpus, pids } = template.limits;
  return JSON.stringify([template.backend, template.repoId, template.ref, memoryMb, cpus, pids]);
}
