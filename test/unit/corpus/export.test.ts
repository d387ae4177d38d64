import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadArtifactDir } from '../../../src/artifact/load-artifact.js';
import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';
import { invertUnifiedDiff } from '../../../src/code/invert-diff.js';
import { instanceTestLists, type SweBenchInstance } from '../../../src/corpus/export-swe-bench.js';
import { resolveRepo } from '../../../src/config/resolve-repo.js';
import { solverStatement } from '../../../src/roles/role-prompts.js';
import { RunStore } from '../../../src/corpus/run-store.js';
import { runCli, type CliRun } from '../../helpers/cli.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/artifacts/valid-single-file', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../../../examples/pyledger.bundle', import.meta.url));
const COMMIT = 'a0fcf854bb26b37599c51843decfcb341a864f73';
// Hand-written from test/fixtures/artifacts/README.md: the 3 tests the bug breaks.
const F = ['split_evenly_keeps_every_cent', 'allocate_by_ratio', 'negative_amounts_allocate_symmetrically'].map((t) => `tests/test_money.py::TestAllocation::test_${t}`);
const validation = { valid: true, failedCheck: null, checks: [], failToPass: F, passToPass: ['tests/test_money.py::TestArithmetic::test_add'], durationMs: 1 };
const metadata = { repo: 'pyledger', commit: COMMIT, strategy: 'removal', order: 1 as const, parentBugId: null, attemptOf: null, episodeId: 'ep-0-0', policyVersion: 0 };

let artifact: BugArtifact;
let root: string;
let corpus: string;
beforeAll(async () => {
  artifact = await loadArtifactDir(FIXTURE);
});
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ssr-export-'));
  corpus = join(root, 'run');
});
afterEach(async () => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

function cli(args: string[]): Promise<CliRun> {
  return runCli(args);
}

/** A run dir with the valid fixture bug (solved 3 of 8), an order-2 child, and an invalid bug. */
async function fakeRun(): Promise<{ valid: string; child: string; invalid: string }> {
  const store = await RunStore.open(corpus, { command: 'corpus', config: {} });
  const valid = await store.writeBug({ artifact, validation, metadata });
  await store.writeSolves(valid.id, Array.from({ length: 8 }, (_, i) => ({
    id: `s${i}`, status: i < 3 ? ('solved' as const) : ('failed' as const), reward: i < 3 ? 1 : -1, exitStatus: 'submitted', reason: null,
  })));
  const childInject = artifact.bugInject.replace('-i))', '-i - 0))');
  const child = await store.writeBug({
    artifact: { ...artifact, bugInject: childInject },
    validation,
    metadata: { ...metadata, order: 2, parentBugId: valid.id, attemptOf: 'ep-0-0.solve-4' },
  });
  const invalid = await store.writeBug({
    artifact: { ...artifact, testParser: 'print("All tests passed!")\n' },
    validation: { valid: false, failedCheck: 'parser', failToPass: [], passToPass: [] },
    metadata,
  });
  return { valid: valid.id, child: child.id, invalid: invalid.id };
}

/** A repos.yaml naming pyledger acme/pyledger, its source the example bundle. */
async function reposYaml(): Promise<string> {
  const path = join(root, 'repos.yaml');
  await writeFile(path, `repos:\n  - id: pyledger\n    repo: acme/pyledger\n    source: { git: ${BUNDLE}, commit: ${COMMIT} }\n    limits: { test_timeout_s: 45 }\n`);
  return path;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();
}

/** The tree of `commit` with `patches` applied in order (real git, on a private index). */
function treeAfter(dir: string, commit: string, patches: string[]): string {
  const env = { ...process.env, GIT_INDEX_FILE: join(root, 'tree-index') };
  execFileSync('git', ['-C', dir, 'read-tree', commit], { env });
  for (const patch of patches) execFileSync('git', ['-C', dir, 'apply', '--cached', '-'], { env, input: patch });
  return execFileSync('git', ['-C', dir, 'write-tree'], { env, encoding: 'utf8' }).trim();
}

describe('ssr export', () => {
  it('writes one runnable SWE-bench instance per valid bug, its commits in a git bundle beside it', async () => {
    const ids = await fakeRun();
    const out = join(root, 'instances.jsonl');
    const result = await cli(['export', '--corpus', corpus, '--out', out, '--repos', await reposYaml()]);
    expect(result).toMatchObject({ code: 0, stdout: `exported 2 valid bugs (1 invalid left out) to ${out}\n` });
    const instances = (await readFile(out, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as SweBenchInstance);
    expect(instances.map((i) => i.instance_id).sort()).toEqual([`pyledger__${ids.valid}`, `pyledger__${ids.child}`].sort());
    const instance = instances.find((i) => i.instance_id === `pyledger__${ids.valid}`)!;
    const created = (await stat(join(corpus, 'bugs', ids.valid, 'validation.json'))).mtime.toISOString();
    expect(instance).toEqual({
      instance_id: `pyledger__${ids.valid}`,
      repo: 'acme/pyledger',
      base_commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      patch: invertUnifiedDiff(artifact.bugInject),
      test_patch: invertUnifiedDiff(artifact.testWeaken),
      problem_statement: solverStatement(artifact),
      hints_text: '',
      FAIL_TO_PASS: JSON.stringify(F),
      PASS_TO_PASS: JSON.stringify(validation.passToPass),
      version: COMMIT.slice(0, 12),
      environment_setup_commit: COMMIT,
      created_at: created,
      repo_id: 'pyledger',
      original_commit: COMMIT,
      bundle: 'instances.repos/pyledger.bundle',
      environment_bundle: 'instances.repos/pyledger.env.bundle',
      image: { base: 'debian-python', packages: [], setup: [] },
      repo_dir: '/repo',
      eval_script: expect.stringContaining('timeout -s KILL 45 bash'),
      lineage: { order: 1, parentBugId: null },
      strategy: 'removal',
      bug_patch: artifact.bugInject,
      test_files: ['tests/test_money.py'],
      test_script: artifact.testScript,
      test_parser: artifact.testParser,
      solve_rate: 3 / 8,
    });
    expect(instanceTestLists(instance)).toEqual({ failToPass: F, passToPass: validation.passToPass });
    // The gold patch undoes the bug: its `-` line is the bug's `+` line.
    expect(instance.patch).toContain('-        order = sorted(range(len(shares)), key=lambda i: (-abs(shares[i] - parts[i]), -i))');
    expect(instance.test_patch).toContain('+    def test_allocate_by_ratio(self, usd):');
    const child = instances.find((i) => i.instance_id === `pyledger__${ids.child}`)!;
    expect(child).toMatchObject({ lineage: { order: 2, parentBugId: ids.valid }, solve_rate: null });
    expect(child.base_commit).not.toBe(instance.base_commit);

    // The instance bundle holds the Solver's view only: one parentless commit per instance, no O.
    const clone = join(root, 'clone');
    execFileSync('git', ['clone', '-q', '--no-checkout', join(root, instance.bundle), clone]);
    expect(git(clone, 'rev-list', '--all').split('\n').sort()).toEqual([instance.base_commit, child.base_commit].sort());
    expect(git(clone, 'rev-list', '--parents', '-n1', instance.base_commit)).toBe(instance.base_commit);
    expect(git(clone, 'show', `${instance.base_commit}:pyledger/money.py`)).toContain('key=lambda i: (-abs(shares[i] - parts[i]), -i))');
    expect(git(clone, 'show', `${instance.base_commit}:tests/test_money.py`)).not.toContain('def test_allocate_by_ratio');
    // The environment bundle holds O; base_commit + patch + test_patch is O's tree again, byte for byte.
    const env = join(root, 'env');
    execFileSync('git', ['clone', '-q', '--no-checkout', join(root, instance.environment_bundle), env]);
    expect(git(env, 'cat-file', '-t', instance.environment_setup_commit)).toBe('commit');
    expect(treeAfter(clone, instance.base_commit, [instance.patch, instance.test_patch])).toBe(git(env, 'rev-parse', `${COMMIT}^{tree}`));

    // Same corpus, same commits (the dates are O's).
    const again = join(root, 'again.jsonl');
    expect((await cli(['export', '--corpus', corpus, '--out', again, '--repos', await reposYaml()])).code).toBe(0);
    expect((await readFile(again, 'utf8')).split('\n').map((line) => (line ? (JSON.parse(line) as SweBenchInstance).base_commit : ''))).toEqual(
      (await readFile(out, 'utf8')).split('\n').map((line) => (line ? (JSON.parse(line) as SweBenchInstance).base_commit : '')),
    );
  });

  it('names a repo ssr-local/<id> when repos.yaml gives no owner/name, and fails clearly when it knows no source', async () => {
    await fakeRun();
    const plain = join(root, 'plain.yaml');
    await writeFile(plain, `repos:\n  - id: pyledger\n    source: { git: ${BUNDLE}, commit: ${COMMIT} }\n`);
    const out = join(root, 'x.jsonl');
    expect((await cli(['export', '--corpus', corpus, '--out', out, '--repos', plain])).code).toBe(0);
    expect(JSON.parse((await readFile(out, 'utf8')).split('\n')[0]!)).toMatchObject({ repo: 'ssr-local/pyledger' });
    const other = join(root, 'other.yaml');
    await writeFile(other, `repos:\n  - id: elsewhere\n    source: { git: ${BUNDLE}, commit: ${COMMIT} }\n`);
    const result = await cli(['export', '--corpus', corpus, '--out', join(root, 'y.jsonl'), '--repos', other]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/repo\(s\) pyledger: not in .*other\.yaml and no --repo <path> has that id/);
  });

  it('finds a repo run by path with --repo <path>', async () => {
    const checkout = join(root, 'My Ledger');
    execFileSync('git', ['clone', '-q', BUNDLE, checkout]);
    git(checkout, 'checkout', '-q', COMMIT);
    const { id } = await resolveRepo(checkout, undefined);
    const store = await RunStore.open(corpus, { command: 'corpus', config: {} });
    await store.writeBug({ artifact, validation, metadata: { ...metadata, repo: id } });
    const out = join(root, 'by-path.jsonl');
    const result = await cli(['export', '--corpus', corpus, '--out', out, '--repos', await reposYaml(), '--repo', checkout]);
    expect(result.code).toBe(0);
    const instance = JSON.parse(await readFile(out, 'utf8')) as SweBenchInstance;
    expect(instance).toMatchObject({ repo: `ssr-local/${id}`, repo_id: id, bundle: `by-path.repos/${id}.bundle` });
    expect(id).toMatch(/^my-ledger-[0-9a-f]{6}$/);
  });

  it.each([
    ['a bug diff that does not apply to its original commit', () => ({ artifact: { bugInject: artifact.bugInject.replaceAll('shares[i] - parts[i]', 'shares[i] + parts[i]') } }), /bug_inject\.diff: applying it to a0fcf854bb26 failed: .*patch does not apply/s],
    ['an original commit the repo does not have', () => ({ metadata: { commit: 'b'.repeat(40) } }), /looking up its original commit b{40} in .*pyledger\.bundle failed/],
  ])('fails with exit 2 for %s, naming the bug dir', async (_name, changeOf: () => { artifact?: Partial<BugArtifact>; metadata?: Partial<typeof metadata> }, message) => {
    const change = changeOf();
    const store = await RunStore.open(corpus, { command: 'corpus', config: {} });
    await store.writeBug({ artifact: { ...artifact, ...change.artifact }, validation, metadata: { ...metadata, ...change.metadata } });
    const result = await cli(['export', '--corpus', corpus, '--out', join(root, 'x.jsonl'), '--repos', await reposYaml()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(join(corpus, 'bugs'));
  });

  it('copies the valid bug dirs as plain artifact directories, and reports a JSON summary', async () => {
    const ids = await fakeRun();
    const out = join(root, 'artifacts');
    const result = await cli(['export', '--corpus', corpus, '--format', 'ssr', '--out', out, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ format: 'ssr', out, exported: 2, invalid: 1, incomplete: 0 });
    expect((await readdir(out)).sort()).toEqual([ids.valid, ids.child].sort());
    expect((await readdir(join(out, ids.valid))).sort()).toEqual([
      'bug_inject.diff', 'metadata.json', 'solves.json', 'test_files.txt', 'test_parser.py', 'test_script.sh', 'test_weaken.diff', 'validation.json',
    ]);
    expect(await loadArtifactDir(join(out, ids.valid))).toMatchObject({ bugInject: artifact.bugInject, testWeaken: artifact.testWeaken });
    // Idempotent: a second export keeps what is there.
    expect((await cli(['export', '--corpus', corpus, '--format', 'ssr', '--out', out])).code).toBe(0);
  });

  it('leaves out a bug dir without validation.json and counts it', async () => {
    await fakeRun();
    await rm(join(corpus, 'bugs', (await readdir(join(corpus, 'bugs')))[0]!, 'validation.json'));
    const result = await cli(['export', '--corpus', corpus, '--out', join(root, 'x.jsonl'), '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ incomplete: 1 });
  });

  it.each([
    ['a dir that is not a run dir', async () => ['export', '--corpus', root, '--out', join(root, 'x.jsonl')], /is not a run dir: it has no bugs\/ folder/],
    ['an unknown format', async () => ['export', '--corpus', corpus, '--format', 'csv', '--out', join(root, 'x')], /Allowed choices are swe-bench, ssr, swe-bench-predictions, mini-swe-agent/],
    [
      'a corrupt validation.json',
      async () => {
        const { valid } = await fakeRun();
        await writeFile(join(corpus, 'bugs', valid, 'validation.json'), '{"valid": "yes"}');
        return ['export', '--corpus', corpus, '--out', join(root, 'x.jsonl')];
      },
      /validation\.json: .*valid/s,
    ],
  ])('fails with exit 2 for %s', async (_name, args, message) => {
    const result = await cli(await args());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
