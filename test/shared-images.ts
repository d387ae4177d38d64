import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { imageRecipeSchema } from '../src/config/repos-schema.js';
import { dockerClient } from '../src/sandbox/docker/docker-client.js';
import { ensureBaseImage } from '../src/sandbox/docker/base-image.js';
import { prepareTemplate } from '../src/sandbox/sandbox-factory.js';
import { probeBwrapBackend, probeDockerBackend } from '../src/sandbox/select-backend.js';
import type { SandboxBackend } from '../src/sandbox/sandbox.js';
import type { ProgressEvent } from '../src/util/progress.js';
import { exampleRepo, jsExampleRepos, ROOT_REPOS_YAML } from './helpers/sandboxes.js';

function log(event: ProgressEvent): void {
  // Only stage changes: a debootstrap prints hundreds of lines.
  if (event.fraction === undefined || event.fraction === 1) process.stderr.write(`[shared-images] ${event.stage}: ${event.message}\n`);
}

/** What a chain that is not essential reports instead of throwing: the tests that need it build again and say why. */
async function reportFailure(what: string, build: () => Promise<void>): Promise<void> {
  try {
    await build();
  } catch (error) {
    process.stderr.write(`[shared-images] ${what} did not build (the tests that need it will build again and say why): ${(error as Error).message.split('\n')[0]}\n`);
  }
}

/**
 * Builds what the integration tests share: pyledger's Docker image and bwrap template (each
 * backend usable here) — the one thing every run needs, so a failure throws — and with `all`,
 * beside it, the other base rootfs a cold machine would build inside a test worker while the other
 * worker waits on its lock: the Node one with jskit's and tskit's images (`npm ci`), and the one
 * with pip (onboarding's pip steps). A debootstrap mostly waits on apt and dpkg, so two at a time
 * is about as fast as one.
 */
export async function prepareSharedImages(all: boolean): Promise<void> {
  if (!existsSync(ROOT_REPOS_YAML)) return;
  const repo = await exampleRepo();
  const backends: SandboxBackend[] = [];
  if ((await probeDockerBackend()).status === 'ok') backends.push('docker');
  if ((await probeBwrapBackend()).status === 'ok') backends.push('bwrap');
  const docker = all && backends.includes('docker');
  const js = docker
    ? reportFailure("the JS examples' images", async () => {
        for (const jsRepo of await jsExampleRepos()) await prepareTemplate(jsRepo, 'docker', log);
      })
    : Promise.resolve();
  try {
    for (const backend of backends) await prepareTemplate(repo, backend, log);
    if (docker) await reportFailure('the base image with pip', async () => void (await ensureBaseImage(dockerClient(), imageRecipeSchema.parse({ setup: [{ pip: 'pip' }] }), log)));
  } finally {
    await js;
  }
}

// `npx tsx test/shared-images.ts` (scripts/prebuild-test-images): everything, before vitest starts.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  prepareSharedImages(true).catch((error: unknown) => {
    process.stderr.write(`[shared-images] ${(error as Error).message}\n`);
    process.exitCode = 1;
  });
}
