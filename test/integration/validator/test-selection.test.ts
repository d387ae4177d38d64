import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';
import type { ResolvedRepo } from '../../../src/config/resolve-repo.js';
import { createProvider } from '../../../src/sandbox/sandbox-factory.js';
import type { ExecOptions, SandboxProvider, SandboxTemplate } from '../../../src/sandbox/sandbox.js';
import { BaselineCache } from '../../../src/validator/baseline-cache.js';
import { validateArtifact } from '../../../src/validator/validate-artifact.js';
import { dockerTemplate, exampleRepo } from '../../helpers/sandboxes.js';
import { withoutTimes } from './without-times.js';

const PARSER = readFileSync(fileURLToPath(new URL('../../fixtures/artifacts/valid-single-file/test_parser.py', import.meta.url)), 'utf8');
/** The whole suite: what selection has to cut down. */
const SCRIPT = 'cd /repo\npython3 -m pytest -rA -p no:cacheprovider tests\n';
const LEAP = '    assert add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)\n';

let dir: string;
let repo: ResolvedRepo;
let template: SandboxTemplate;

/** A real diff against pyledger's pinned commit: make the edit, take `git diff`, put the file back. */
function diffOf(path: string, edit: (text: string) => string): string {
  const file = join(dir, path);
  const before = readFileSync(file, 'utf8');
  writeFileSync(file, edit(before));
  const diff = execFileSync('git', ['-C', dir, 'diff'], { encoding: 'utf8' });
  writeFileSync(file, before);
  return diff;
}

function artifact(bugInject: string): BugArtifact {
  const testWeaken = diffOf('tests/test_periods.py', (text) => text.replace(LEAP, ''));
  return { bugInject, testWeaken, testFiles: ['tests/test_periods.py'], testScript: SCRIPT, testParser: PARSER };
}

/** The real Docker provider, recording the PYTEST_ADDOPTS of every test run. */
function recording(provider: SandboxProvider): SandboxProvider & { addopts: string[] } {
  const recorder = {
    backend: provider.backend,
    addopts: [] as string[],
    acquire: async (t: SandboxTemplate) => {
      const sandbox = await provider.acquire(t);
      const exec = sandbox.exec.bind(sandbox);
      sandbox.exec = (command: string, options?: ExecOptions) => {
        if (options?.env?.PYTEST_ADDOPTS !== undefined) recorder.addopts.push(options.env.PYTEST_ADDOPTS);
        return exec(command, options);
      };
      return sandbox;
    },
  };
  return recorder as SandboxProvider & { addopts: string[] };
}

/** One validation; the full one after the selected one shares its cache (O's runs, B's), so it runs W and the order check only. */
async function validate(bug: BugArtifact, selectTests: 'always' | 'never', baselines: BaselineCache, provider: SandboxProvider = createProvider('docker')) {
  return validateArtifact(bug, { repo, template, provider, queue: new PQueue({ concurrency: 2 }), baselines, selectTests });
}

beforeAll(async () => {
  repo = await exampleRepo();
  template = await dockerTemplate(repo);
  dir = mkdtempSync(join(tmpdir(), 'ssr-selection-'));
  execFileSync('git', ['clone', '-q', repo.location, dir]);
  execFileSync('git', ['-C', dir, 'checkout', '-q', repo.commit]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('relevant-test selection (real Docker, real pytest, pyledger: 7 test files, one per module)', () => {
  it('runs a bug in periods.py on the test files that execute its line only, with the verdict and oracle sets of the full suite', async () => {
    // Clamping to one day before the month's end: add_months and what uses it (interest) break.
    const bug = artifact(diffOf('pyledger/periods.py', (text) => text.replace('min(day.day, days_in_month(year, month))', 'min(day.day, days_in_month(year, month) - 1)')));
    const provider = recording(createProvider('docker'));
    const baselines = new BaselineCache();
    const selected = await validate(bug, 'always', baselines, provider);
    const full = await validate(bug, 'never', baselines);

    expect(full.valid, JSON.stringify(full.checks.at(-1))).toBe(true);
    // O's traced run: only test_periods.py and test_interest.py execute the clamped line.
    expect(selected.selection).toEqual({ status: 'selected', by: 'coverage', keptTestFiles: 2, testFiles: 7 });
    expect(withoutTimes(selected)).toEqual(withoutTimes(full));
    // Every run is counted, by kind and scope: the selected path runs W restricted, and B once in
    // full, which is the audit; O's two full runs and its traced run are the clean suite's. A
    // one-file bug's inverse state is O's tree: it reuses O's (selected) run. The full validation
    // after it finds O's and B's full runs in the cache: W in full is its only state run.
    expect(full.testRuns).toEqual({ weakened: { full: 1, restricted: 0 }, order: { full: 0, restricted: 1 } });
    expect(selected.testRuns).toEqual({
      original: { full: 2, restricted: 1 }, weakened: { full: 0, restricted: 1 }, audit: { full: 1, restricted: 0 }, coverage: { full: 1, restricted: 0 }, order: { full: 0, restricted: 1 },
    });
    // The bug's states really left the other test files out of collection.
    expect(provider.addopts.length).toBe(2);
    for (const addopts of provider.addopts) {
      expect(addopts.split(' ').sort()).toEqual(['csvio', 'currency', 'ledger', 'money', 'reports'].map((name) => `--ignore=/repo/tests/test_${name}.py`));
    }
  }, 300_000);

  it('falls back to the full suite, and says what it missed, when the bug reaches tests its lines\' coverage cannot see', async () => {
    // Only test_currency.py's conflicting re-registration reaches this line in O. On B it no longer
    // raises: that test replaces USD (2 decimals) with a 3-decimal USD in the registry, and the test
    // files run after it (test_money.py...) see the changed currency without executing the line.
    const bug = artifact(diffOf('pyledger/currency.py', (text) => text.replace('        raise ValueError(f"currency {currency.code} is already registered")', '        pass')));
    const baselines = new BaselineCache();
    const selected = await validate(bug, 'always', baselines);
    const full = await validate(bug, 'never', baselines);

    expect(selected.selection).toMatchObject({ status: 'fallback', missed: expect.arrayContaining([expect.stringContaining('tests/test_money.py::')]) });
    // The audit's full run is counted; the fallback's full states reuse O's runs and the audit's run
    // of B from the cache, so neither is run (or counted) again.
    expect(selected.testRuns).toMatchObject({ audit: { full: 1, restricted: 0 }, original: { full: 2, restricted: 1 }, coverage: { full: 1, restricted: 0 } });
    expect(selected.testRuns?.buggy).toBeUndefined();
    expect(withoutTimes(selected)).toEqual(withoutTimes(full));
  }, 300_000);
});
