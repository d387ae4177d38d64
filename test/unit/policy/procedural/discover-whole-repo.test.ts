import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discover, type Discovery } from '../../../../src/policy/procedural/injector/discover.js';
import { ARTIFACT_DIR, WORK_DIR } from '../../../../src/policy/procedural/injector/injector-commands.js';
import { readBack, readBackCommand, READ_BACK_PAGE_CHARS } from '../../../../src/policy/procedural/injector/read-back.js';
import type { Observation } from '../../../../src/policy/procedural/observation.js';
import type { Steps } from '../../../../src/policy/procedural/program.js';
import { capOutput } from '../../../../src/tools/cap-output.js';

const root = mkdtempSync(join(tmpdir(), 'ssr-discover-whole-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Debian's python3 (as in the images: pytest 7) first on PATH, whatever the shell's python3 is.
const bin = join(root, 'bin');
mkdirSync(bin);
symlinkSync('/usr/bin/python3', join(bin, 'python3'));

/**
 * Run a program's bash steps for real, as the sandbox's bash tool would (output merged, the last
 * newline dropped, cut in the middle past 16 KiB), with the sandbox's /repo and scratch folders
 * moved under `root`; returns the program's value and how many steps it made.
 */
async function drive<T>(program: Steps<T>, repo: string): Promise<{ value: T; steps: number }> {
  const work = join(root, 'work');
  let next = await program.next();
  let steps = 0;
  while (!next.done) {
    steps += 1;
    const step = next.value;
    if (step.tool !== 'bash') throw new Error(`unexpected ${step.tool} step`);
    const command = step.args.command.replaceAll(WORK_DIR, work).replaceAll(ARTIFACT_DIR, join(root, 'art')).replaceAll('cd /repo', `cd ${repo}`);
    const run = spawnSync('bash', ['-c', `exec 2>&1\n${command}`], { cwd: repo, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, maxBuffer: 64 * 1024 * 1024 });
    const text = capOutput(run.stdout.replace(/\n$/, ''));
    const observation: Observation = { tool: 'bash', text, ok: run.status === 0, exitCode: run.status, timedOut: false, turnsLeft: null, tokensLeft: null, raw: text };
    next = await program.next(observation);
  }
  return { value: next.value, steps };
}

/** A git repo of `count` code modules with long names (the listing passes the tool's 16 KiB), six branchy functions each, a 3-line module, and one test file calling them. */
function bigRepo(count: number): { repo: string; modules: string[] } {
  const repo = join(root, 'repo');
  mkdirSync(join(repo, 'pkg'), { recursive: true });
  mkdirSync(join(repo, 'tests'));
  const functions = Array.from({ length: 6 }, (_, n) => `def f${n}(x):\n    if x:\n        return ${n}\n    return -${n}\n`).join('');
  const modules = Array.from({ length: count }, (_, n) => `pkg/a_module_with_a_rather_long_name_${String(n).padStart(3, '0')}.py`);
  for (const path of modules) writeFileSync(join(repo, path), functions);
  writeFileSync(join(repo, 'pkg/__init__.py'), '');
  writeFileSync(join(repo, 'pkg/_tiny.py'), 'def tiny():\n    return 1\n');
  const names = modules.map((path) => path.slice(4, -3));
  writeFileSync(join(repo, 'tests/test_all.py'), [
    'import importlib',
    'from pkg import _tiny',
    `NAMES = ${JSON.stringify(names)}`,
    'def test_tiny():\n    assert _tiny.tiny() == 1',
    'def test_modules():\n    for name in NAMES:\n        module = importlib.import_module("pkg." + name)\n        assert [getattr(module, "f%d" % n)(1) for n in range(6)] == list(range(6))',
    '',
  ].join('\n'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'fixture');
  return { repo, modules };
}

describe('discovery sees the whole repository, however long its listing and its coverage', () => {
  it('lists and traces all 260 modules (the listing used to stop at 200, the coverage at 15,000 characters), but not a module too small to mutate', async () => {
    const { repo, modules } = bigRepo(260);
    const { value } = await drive<Discovery>(discover({ coverage: true, maxRunS: 300 }), repo);
    expect(value.status).toBe('ok');
    const { facts } = value as Extract<Discovery, { status: 'ok' }>;
    expect(facts.codeFiles).toEqual(expect.arrayContaining(modules));
    expect(facts.testFiles.has('tests/test_all.py')).toBe(true);
    // Every module's six taken branches, none of the untaken ones: no line cut short.
    const taken = [1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21, 22, 23];
    for (const path of modules) expect([...(facts.coverage?.get(path) ?? [])].filter((line) => line > 0).sort((a, b) => a - b)).toEqual(taken);
    // Fewer than 10 lines: never a candidate (codeFilePool), so not traced.
    expect(facts.coverage?.has('pkg/_tiny.py')).toBe(false);
  }, 120_000);

  it('reads a file back in pages when it does not pack into one, and says so when it cannot be read', async () => {
    const file = join(root, 'noise.txt');
    // Incompressible text: the packed file takes three pages.
    const noise = execFileSync('bash', ['-c', 'head -c 36000 /dev/urandom | base64 -w 100'], { encoding: 'utf8' });
    writeFileSync(file, noise);
    const program = async function* (): Steps<unknown> {
      const first = yield { tool: 'bash', args: { command: readBackCommand(file) }, rationale: 'read' };
      return yield* readBack(file, first.text, 'read on');
    };
    const { value, steps } = await drive(program(), root);
    expect(value).toEqual({ status: 'ok', text: noise });
    // 36,000 random bytes pack into at least 48,000 base64 characters.
    expect(steps).toBeGreaterThanOrEqual(Math.ceil(48_000 / READ_BACK_PAGE_CHARS));
    const missing = await drive(readBack(join(root, 'absent.txt'), 'wc: absent.txt: No such file or directory', 'read on'), root);
    expect(missing.value).toMatchObject({ status: 'failed', reason: expect.stringMatching(/absent\.txt was not printed/) });
  }, 60_000);
});
