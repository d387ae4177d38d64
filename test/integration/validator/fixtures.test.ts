import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadArtifactDir } from '../../../src/artifact/load-artifact.js';
import type { ResolvedRepo } from '../../../src/config/resolve-repo.js';
import { createProvider } from '../../../src/sandbox/sandbox-factory.js';
import type { SandboxTemplate } from '../../../src/sandbox/sandbox.js';
import { BaselineCache } from '../../../src/validator/baseline-cache.js';
import { CHECK_NAMES } from '../../../src/validator/check-types.js';
import { validateArtifact, type ValidateOptions } from '../../../src/validator/validate-artifact.js';
import { dockerTemplate, exampleRepo } from '../../helpers/sandboxes.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/artifacts/', import.meta.url));

interface Expected {
  valid: boolean;
  failedCheck: string | null;
  evidenceMentions: string[];
}

/** Fixtures whose input is unreadable: a load error (exit 2), before any check runs. */
const LOAD_ERRORS: Record<string, RegExp> = {
  'garbage-diff': /bug_inject\.diff: binary data at byte \d+/,
};

/** The hanging script would otherwise take the repo's whole 90 s limit. */
const TIMEOUT_MS: Record<string, number> = { 'script-hangs': 4_000 };

const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => {
    const expected = JSON.parse(readFileSync(join(FIXTURES, entry.name, 'expected.json'), 'utf8')) as Expected;
    return { name: entry.name, ...expected };
  });

describe('ssr validator over every artifact fixture (real Docker, real pytest)', () => {
  let repo: ResolvedRepo;
  let template: SandboxTemplate;
  let shared: Omit<ValidateOptions, 'testTimeoutMs'>;

  beforeAll(async () => {
    repo = await exampleRepo();
    template = await dockerTemplate(repo);
    // One queue and one baseline cache for all fixtures, as `--artifact-list` shares them.
    shared = { repo, template, provider: createProvider('docker'), queue: new PQueue({ concurrency: 3 }), baselines: new BaselineCache() };
  });

  it('covers a valid artifact and every check with at least one failing fixture', () => {
    const failedChecks = new Set(cases.map((c) => c.failedCheck));
    for (const check of ['existence', 'parser', 'test-script', 'min-files', 'failing-tests', 'concealment', 'inverse-redundancy']) {
      expect(failedChecks, check).toContain(check);
    }
    expect(cases.some((c) => c.valid)).toBe(true);
  });

  it.concurrent.each(cases.filter((c) => !(c.name in LOAD_ERRORS)))('$name → valid=$valid, failedCheck=$failedCheck', async (c) => {
    const artifact = await loadArtifactDir(join(FIXTURES, c.name));
    const result = await validateArtifact(artifact, { ...shared, testTimeoutMs: TIMEOUT_MS[c.name] });
    const failing = result.checks.find((check) => check.status !== 'pass');
    expect(result.infrastructureError, JSON.stringify(failing)).toBeUndefined();
    expect({ valid: result.valid, failedCheck: result.failedCheck }, JSON.stringify(failing)).toEqual({ valid: c.valid, failedCheck: c.failedCheck });
    if (c.valid) {
      expect(result.checks.map((check) => check.status)).toEqual(Array(CHECK_NAMES.length).fill('pass'));
      expect(result.failToPass.length).toBeGreaterThan(0);
      expect(result.passToPass.length).toBeGreaterThanOrEqual(repo.thresholds.min_passing_tests - result.failToPass.length);
    } else {
      // Checks stop at the first failure, and the evidence names the culprit.
      expect(result.checks.at(-1)?.name).toBe(c.failedCheck);
      const told = JSON.stringify({ reason: failing?.reason, evidence: failing?.evidence });
      for (const mention of c.evidenceMentions) expect(told).toContain(mention);
    }
  });

  it.each(Object.entries(LOAD_ERRORS))('%s is refused when loading, with a specific error', async (name, message) => {
    await expect(loadArtifactDir(join(FIXTURES, name))).rejects.toThrow(message);
  });
});
