import { existsSync } from 'node:fs';
import type { ProgressEvent } from '../src/util/progress.js';
import { prepareTemplate } from '../src/sandbox/sandbox-factory.js';
import { probeBwrapBackend, probeDockerBackend } from '../src/sandbox/select-backend.js';
import type { SandboxBackend } from '../src/sandbox/sandbox.js';
import { exampleRepo, ROOT_REPOS_YAML } from './helpers/sandboxes.js';

function log(event: ProgressEvent): void {
  // Only stage changes: a debootstrap prints hundreds of lines.
  if (event.fraction === undefined || event.fraction === 1) process.stderr.write(`[global-setup] ${event.stage}: ${event.message}\n`);
}

/** `vitest run test/unit/...` needs no images: do not make unit runs wait for (or need) Docker. */
function onlyUnitTests(): boolean {
  const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('-') && arg !== 'run' && arg !== 'watch');
  return filters.length > 0 && filters.every((filter) => /^(\.\/)?test\/unit\b/.test(filter));
}

/**
 * Builds what the integration tests share once, before any test worker starts: the base rootfs,
 * the base image and the example repo's image and bwrap template. Workers then find them cached.
 * A backend that is not usable here is not built; the tests that need it fail with that reason.
 */
export default async function setup(): Promise<void> {
  if (!existsSync(ROOT_REPOS_YAML) || onlyUnitTests()) return;
  const repo = await exampleRepo();
  const backends: SandboxBackend[] = [];
  if ((await probeDockerBackend()).status === 'ok') backends.push('docker');
  if ((await probeBwrapBackend()).status === 'ok') backends.push('bwrap');
  for (const backend of backends) await prepareTemplate(repo, backend, log);
}
