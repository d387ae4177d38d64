import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { loadArtifactDir } from '../../src/artifact/load-artifact.js';
import type { ResolvedRepo } from '../../src/config/resolve-repo.js';
import { instanceTestLists, type SweBenchInstance } from '../../src/corpus/export-swe-bench.js';
import { readStoredBug } from '../../src/corpus/read-stored-bug.js';
import { RunStore } from '../../src/corpus/run-store.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { BaselineCache } from '../../src/validator/baseline-cache.js';
import { validateArtifact, type ValidationResult } from '../../src/validator/validate-artifact.js';
import { dockerTemplate, exampleRepo, ROOT_REPOS_YAML } from '../helpers/sandboxes.js';
import { runCli, type CliRun } from '../helpers/cli.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/artifacts/valid-single-file', import.meta.url));
const F = ['split_evenly_keeps_every_cent', 'allocate_by_ratio', 'negative_amounts_allocate_symmetrically'].map((t) => `tests/test_money.py::TestAllocation::test_${t}`);

let repo: ResolvedRepo;
let template: SandboxTemplate;
let artifact: BugArtifact;
let validation: ValidationResult;
let root: string;
/** A run dir holding the fixture bug with the verdict of the real validator. */
let corpus: string;
let bugId: string;
const shared = () => ({ repo, template, provider: createProvider('docker'), queue: new PQueue({ concurrency: 2 }), baselines });
const baselines = new BaselineCache();

beforeAll(async () => {
  repo = await exampleRepo();
  template = await dockerTemplate(repo);
  artifact = await loadArtifactDir(FIXTURE);
  root = await mkdtemp(join(tmpdir(), 'ssr-export-it-'));
  validation = await validateArtifact(artifact, shared());
  corpus = join(root, 'run');
  const store = await RunStore.open(corpus, { command: 'corpus', config: { repos: [repo.id] } });
  const metadata = { repo: repo.id, commit: repo.commit, strategy: 'removal', order: 1 as const, parentBugId: null, attemptOf: null, episodeId: null, policyVersion: null };
  const written = await store.writeBug({ artifact, validation, metadata });
  bugId = written.id;
});
afterAll(() => rm(root, { recursive: true, force: true }));

function cli(args: string[]): Promise<CliRun> {
  return runCli(args);
}

/**
 * The instance's eval_script in a container of the repo's environment image (built from O with its
 * repos.yaml recipe), the checkout mounted at repo_dir, no network: the JSON status map.
 */
function runInstanceTests(checkout: string, instance: SweBenchInstance): Record<string, string> {
  const args = ['run', '--rm', '-i', '--network', 'none', '-e', 'PYTHONDONTWRITEBYTECODE=1', '-v', `${checkout}:${instance.repo_dir}`, template.ref, 'bash', '-s'];
  return JSON.parse(execFileSync('docker', args, { input: instance.eval_script, encoding: 'utf8', timeout: 120_000 })) as Record<string, string>;
}

/** pyledger at the pinned commit, cloned from the bundle. */
function checkout(name: string): { dir: string; git: (...args: string[]) => string } {
  const dir = join(root, name);
  execFileSync('git', ['clone', '-q', repo.location, dir]);
  const git = (...args: string[]): string => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
  git('checkout', '-q', repo.commit);
  return { dir, git };
}

describe('export of a validated bug (real Docker validator, real git)', () => {
  it('stores the validator verdict, and exports an instance whose patches round-trip on the real repo', async () => {
    expect(validation).toMatchObject({ valid: true, failedCheck: null });
    expect([...validation.failToPass].sort()).toEqual([...F].sort());
    expect(validation.passToPass.length).toBeGreaterThanOrEqual(80);

    const stored = await readStoredBug(join(corpus, 'bugs', bugId));
    expect(stored?.validation).toMatchObject({ valid: true, failToPass: validation.failToPass, checks: validation.checks.map((c) => ({ name: c.name, status: 'pass' })) });

    const out = join(root, 'instances.jsonl');
    expect((await cli(['export', '--corpus', corpus, '--format', 'swe-bench', '--out', out])).code).toBe(0);
    const [instance, ...rest] = (await readFile(out, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as SweBenchInstance);
    expect(rest).toEqual([]);
    expect(instance).toMatchObject({ repo: 'ssr-local/pyledger', repo_id: 'pyledger', original_commit: repo.commit, environment_setup_commit: repo.commit });
    expect(instanceTestLists(instance!)).toEqual({ failToPass: validation.failToPass, passToPass: validation.passToPass });

    // The first format's reading still holds: O + bug_patch + weakened tests, and patch and test_patch take it back to O.
    const { dir, git } = checkout('roundtrip');
    await writeFile(join(dir, '..', 'bug.diff'), instance!.bug_patch);
    await writeFile(join(dir, '..', 'weaken.diff'), artifact.testWeaken);
    await writeFile(join(dir, '..', 'patch.diff'), instance!.patch);
    await writeFile(join(dir, '..', 'test_patch.diff'), instance!.test_patch);
    git('apply', '../bug.diff', '../weaken.diff');
    expect(git('status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([' M pyledger/money.py', ' M tests/test_money.py']);
    git('apply', '../patch.diff', '../test_patch.diff');
    expect(git('status', '--porcelain')).toBe('');
  });

  it('plays the SWE-bench harness: base_commit + test_patch fails FAIL_TO_PASS, + patch passes them and PASS_TO_PASS (real git, real Docker, real pytest)', async () => {
    const out = join(root, 'harness', 'instances.jsonl');
    expect((await cli(['export', '--corpus', corpus, '--format', 'swe-bench', '--out', out, '--repos', ROOT_REPOS_YAML])).code).toBe(0);
    const instance = JSON.parse((await readFile(out, 'utf8')).trim()) as SweBenchInstance;
    const { failToPass, passToPass } = instanceTestLists(instance);
    expect(failToPass.length).toBeGreaterThan(0);

    // What a harness does: clone the shipped bundle, check out base_commit, apply test_patch, run.
    const testbed = join(root, 'testbed');
    execFileSync('git', ['clone', '-q', join(root, 'harness', instance.bundle), testbed]);
    const git = (...args: string[]): string => execFileSync('git', ['-C', testbed, ...args], { encoding: 'utf8' });
    git('checkout', '-q', instance.base_commit);
    expect(git('log', '--format=%H parents:%P', '-n', '5').trim()).toBe(`${instance.base_commit} parents:`); // the Solver's view: no history
    const buggy = runInstanceTests(testbed, instance);
    for (const test of failToPass) expect(buggy[test], test).toBeUndefined(); // hidden by the weakening
    for (const test of passToPass) expect(buggy[test], test).toBe('passed');

    await writeFile(join(root, 'test_patch.diff'), instance.test_patch);
    git('apply', '../test_patch.diff');
    const before = runInstanceTests(testbed, instance);
    for (const test of failToPass) expect(before[test], test).toBe('failed');
    for (const test of passToPass) expect(before[test], test).toBe('passed');

    await writeFile(join(root, 'patch.diff'), instance.patch);
    git('apply', '../patch.diff');
    const after = runInstanceTests(testbed, instance);
    for (const test of [...failToPass, ...passToPass]) expect(after[test], test).toBe('passed');
  });

  it('exports artifact directories that re-validate', async () => {
    const out = join(root, 'artifacts');
    const result = await cli(['export', '--corpus', corpus, '--format', 'ssr', '--out', out, '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ exported: 1, invalid: 0 });
    expect(await readdir(out)).toEqual([bugId]);
    const again = await validateArtifact(await loadArtifactDir(join(out, bugId)), shared());
    expect(again).toMatchObject({ valid: true, failToPass: validation.failToPass });
  });
});
