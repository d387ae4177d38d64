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

async function usableBackends(): Promise<SandboxBackend[]> {
  const backends: SandboxBackend[] = [];
  if ((await probeDockerBackend()).status === 'ok') backends.push('docker');
  if ((await probeBwrapBackend()).status === 'ok') backends.push('bwrap');
  return backends;
}

/**
 * What every integration run needs: pyledger's Docker image and bwrap template, for each backend
 * usable here (one that is not is skipped; the tests that need it fail with that reason). Throws.
 */
export async function prepareExampleImages(): Promise<void> {
  if (!existsSync(ROOT_REPOS_YAML)) return;
  const repo = await exampleRepo();
  for (const backend of await usableBackends()) await prepareTemplate(repo, backend, log);
}

/** A build that is not essential reports its failure instead of throwing: the tests that need it build again and say why. */
async function reportFailure(what: string, build: () => Promise<unknown>): Promise<void> {
  try {
    await build();
  } catch (error) {
    process.stderr.write(`[shared-images] ${what} did not build (the tests that need it will build again and say why): ${(error as Error).message.split('\n')[0]}\n`);
  }
}

/**
 * The other base rootfs a cold machine would otherwise build inside a test worker, while the other
 * worker's tests wait on its lock: the Node one with jskit's and tskit's Docker images (`npm ci`),
 * then the one with pip (onboarding's pip steps). Never throws.
 */
export async function prepareExtraImages(): Promise<void> {
  if (!existsSync(ROOT_REPOS_YAML) || !(await usableBackends()).includes('docker')) return;
  await reportFailure("the JS examples' images", async () => {
    for (const repo of await jsExampleRepos()) await prepareTemplate(repo, 'docker', log);
  });
  await reportFailure('the base image with pip', () => ensureBaseImage(dockerClient(), imageRecipeSchema.parse({ setup: [{ pip: 'pip' }] }), log));
}

/** Both, at the same time: a debootstrap mostly waits on apt and dpkg, so two at a time take about as long as one. */
export async function prepareSharedImages(): Promise<void> {
  const extra = prepareExtraImages();
  try {
    await prepareExampleImages();
  } finally {
    await extra;
  }
}

const PARTS: Record<string, () => Promise<void>> = { example: prepareExampleImages, extra: prepareExtraImages, all: prepareSharedImages };

// `npx tsx test/shared-images.ts [example|extra|all]` (scripts/prebuild-test-images).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const part = PARTS[process.argv[2] ?? 'all'];
  if (!part) {
    process.stderr.write(`usage: test/shared-images.ts [${Object.keys(PARTS).join('|')}]\n`);
    process.exitCode = 2;
  } else {
    part().catch((error: unknown) => {
      process.stderr.write(`[shared-images] ${(error as Error).message}\n`);
      process.exitCode = 1;
    });
  }
}
