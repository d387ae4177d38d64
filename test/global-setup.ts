import { existsSync } from 'node:fs';
import type { ProgressEvent } from '../src/util/progress.js';
import { prepareTemplate } from '../src/sandbox/sandbox-factory.js';
import { probeBwrapBackend, probeDockerBackend } from '../src/sandbox/select-backend.js';
import type { SandboxBackend } from '../src/sandbox/sandbox.js';
import { exampleRepo, jsExampleRepos, ROOT_REPOS_YAML } from './helpers/sandboxes.js';

function log(event: ProgressEvent): void {
  // Only stage changes: a debootstrap prints hundreds of lines.
  if (event.fraction === undefined || event.fraction === 1) process.stderr.write(`[global-setup] ${event.stage}: ${event.message}\n`);
}

/** The file filters of this vitest run (`vitest run test/unit/x.test.ts` → ['test/unit/x.test.ts']). */
function fileFilters(): string[] {
  return process.argv.slice(2).filter((arg) => !arg.startsWith('-') && arg !== 'run' && arg !== 'watch');
}

/** `vitest run test/unit/...` needs no images: do not make unit runs wait for (or need) Docker. */
function onlyUnitTests(): boolean {
  const filters = fileFilters();
  return filters.length > 0 && filters.every((filter) => /^(\.\/)?test\/unit\b/.test(filter));
}

/**
 * The JS examples' Docker images (the Node base rootfs, then jskit's and tskit's `npm ci`), built
 * beside the Python chain when the whole suite runs: a cold machine's first JS test would otherwise
 * build them inside a worker while the other JS tests wait on its lock. A failure is only reported:
 * the JS tests build again and fail with the reason, and the Python tests still run.
 */
async function prepareJsExamples(): Promise<void> {
  try {
    for (const repo of await jsExampleRepos()) await prepareTemplate(repo, 'docker', log);
  } catch (error) {
    process.stderr.write(`[global-setup] the JS examples' images did not build (their tests will say why): ${(error as Error).message.split('\n')[0]}\n`);
  }
}

/**
 * Builds what the integration tests share once, before any test worker starts: the base rootfs,
 * the base image and the example repo's image and bwrap template; on a whole-suite run, the JS
 * examples' images too, at the same time. Workers then find them cached.
 * A backend that is not usable here is not built; the tests that need it fail with that reason.
 */
export default async function setup(): Promise<void> {
  if (!existsSync(ROOT_REPOS_YAML) || onlyUnitTests()) return;
  const repo = await exampleRepo();
  const backends: SandboxBackend[] = [];
  if ((await probeDockerBackend()).status === 'ok') backends.push('docker');
  if ((await probeBwrapBackend()).status === 'ok') backends.push('bwrap');
  const js = backends.includes('docker') && fileFilters().length === 0 ? prepareJsExamples() : Promise.resolve();
  try {
    for (const backend of backends) await prepareTemplate(repo, backend, log);
  } finally {
    await js;
  }
}
