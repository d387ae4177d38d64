import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadArtifactDir } from '../../../src/artifact/load-artifact.js';
import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';
import type { ResolvedRepo } from '../../../src/config/resolve-repo.js';
import { createProvider } from '../../../src/sandbox/sandbox-factory.js';
import type { SandboxProvider, SandboxTemplate } from '../../../src/sandbox/sandbox.js';
import { BaselineCache } from '../../../src/validator/baseline-cache.js';
import { validateArtifact, type ValidationResult } from '../../../src/validator/validate-artifact.js';
import { dockerTemplate, exampleRepo } from '../../helpers/sandboxes.js';
import { withoutTimes } from './without-times.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/artifacts/', import.meta.url));

/**
 * Deterministic fixtures (no flaky or random parser): a valid one-file and two-file bug, a
 * rejection at each check that reads a bug's runs, and one at test-script. Most share pyledger's
 * test script, so the parallel path's cache really serves one artifact's runs to another.
 */
const NAMES = ['valid-single-file', 'valid-two-files', 'redundant-extra-file', 'weaken-hides-nothing', 'bug-breaks-nothing', 'failing-on-original'];

/** The real Docker provider, counting the sandboxes it starts. */
function counting(provider: SandboxProvider): SandboxProvider & { acquired: number } {
  const counter = {
    backend: provider.backend,
    acquired: 0,
    acquire: (template: SandboxTemplate) => {
      counter.acquired += 1;
      return provider.acquire(template);
    },
  };
  return counter as SandboxProvider & { acquired: number };
}

describe('the parallel, cached validator agrees with the sequential reference path (real Docker, real pytest)', () => {
  let repo: ResolvedRepo;
  let template: SandboxTemplate;
  let artifacts: BugArtifact[];

  beforeAll(async () => {
    repo = await exampleRepo();
    template = await dockerTemplate(repo);
    artifacts = await Promise.all(NAMES.map((name) => loadArtifactDir(join(FIXTURES, name))));
  });

  it('gives the same ValidationResult on every artifact, with fewer sandboxes', async () => {
    const sequentialProvider = counting(createProvider('docker'));
    const sequential: ValidationResult[] = [];
    for (const artifact of artifacts) {
      // Nothing shared: its own cache, one sandbox at a time, every state run for itself.
      const queue = new PQueue({ concurrency: 1 });
      sequential.push(await validateArtifact(artifact, { repo, template, provider: sequentialProvider, queue, baselines: new BaselineCache(), sequential: true }));
    }

    // As `--artifact-list` and self-play do: every artifact at once, one queue, one cache.
    const parallelProvider = counting(createProvider('docker'));
    const baselines = new BaselineCache();
    const queue = new PQueue({ concurrency: 2 });
    const parallel = await Promise.all(artifacts.map((artifact) => validateArtifact(artifact, { repo, template, provider: parallelProvider, queue, baselines })));

    for (const [index, name] of NAMES.entries()) {
      expect(parallel[index]!.infrastructureError, name).toBeUndefined();
      expect(withoutTimes(parallel[index]), name).toEqual(withoutTimes(sequential[index]));
    }
    expect(sequential.filter((result) => result.valid)).toHaveLength(2);
    expect(new Set(sequential.map((result) => result.failedCheck)).size).toBe(5);
    // O's runs are read from the cache by the artifacts after the first, and the one-file bugs'
    // inverse state (B with its file reverted is O) never starts a sandbox of its own.
    expect(baselines.hits).toBeGreaterThan(NAMES.length);
    // The parallel path starts every state ahead, so a rejected artifact may have run states the
    // sequential path never reached; sharing still leaves it under.
    expect(parallelProvider.acquired).toBeLessThan(sequentialProvider.acquired);
  }, 600_000);
});
