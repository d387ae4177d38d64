import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';
import { parseTestFilesList } from '../../../src/artifact/test-files-list.js';
import type { ResolvedRepo } from '../../../src/config/resolve-repo.js';
import { readJsTestFiles } from '../../../src/harness/js-test-files.js';
import { createProvider } from '../../../src/sandbox/sandbox-factory.js';
import type { SandboxTemplate } from '../../../src/sandbox/sandbox.js';
import { BaselineCache } from '../../../src/validator/baseline-cache.js';
import { validateArtifact } from '../../../src/validator/validate-artifact.js';
import { dockerTemplate } from '../../helpers/sandboxes.js';
import { fixtureRepo } from '../js-cheats.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/js-selection/', import.meta.url));

let repo: ResolvedRepo;
let template: SandboxTemplate;

beforeAll(async () => {
  // Three node:test files, one Node process each: money, words, and a CLI test that runs money's code in a child process.
  const tiny = await fixtureRepo(join(FIXTURE, 'repo'), 'jscover', 'node-test', 120);
  repo = { ...tiny, thresholds: { ...tiny.thresholds, min_passing_tests: 4 } };
  template = await dockerTemplate(repo);
}, 900_000);

function artifact(): BugArtifact {
  const read = (file: string): string => readFileSync(join(FIXTURE, file), 'utf8');
  return { bugInject: read('bug_inject.diff'), testWeaken: read('test_weaken.diff'), testFiles: parseTestFilesList(read('test_files.txt')).files, ...readJsTestFiles('node-test') };
}

describe('JS validation restricted by V8 coverage (real Docker, node:test)', () => {
  it("falls back to the full suite, and says what it missed, when the bug reaches a test through a child process coverage cannot see", async () => {
    // The changed line of money.mjs runs in money.test.mjs's process, and in the CLI test's child
    // process, which gets a clean environment (no NODE_V8_COVERAGE): coverage sees only the first.
    const selected = await validateArtifact(artifact(), { repo, template, provider: createProvider('docker'), queue: new PQueue({ concurrency: 2 }), baselines: new BaselineCache(), selectTests: 'always' });

    expect(selected.selection).toEqual({ status: 'fallback', reason: expect.stringMatching(/audit's full run of the buggy repo disagrees/), missed: ['test/cli.test.mjs > cli > prints an amount'] });
    // The fallback is the full suite's validation (selection `never`, O's and B's full runs from the
    // cache): its verdict and oracle sets are the full suite's, the CLI test among the failing ones.
    expect({ valid: selected.valid, failedCheck: selected.failedCheck }, JSON.stringify(selected.checks.at(-1))).toEqual({ valid: true, failedCheck: null });
    expect(selected.failToPass).toEqual(['test/cli.test.mjs > cli > prints an amount', 'test/money.test.mjs > formatCents > keeps two places']);
    expect(selected.passToPass).toEqual(['test/money.test.mjs > formatCents > refuses a fraction of a cent', 'test/words.test.mjs > words > splits on white space']);
    // The traced run and the audit are counted; the fallback ran W in full, once.
    expect(selected.testRuns).toMatchObject({ coverage: { full: 1, restricted: 0 }, original: { full: 2, restricted: 1 }, audit: { full: 1, restricted: 0 }, weakened: { full: 1, restricted: 1 } });
  }, 600_000);
});
