import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { loadArtifactDir } from '../../src/artifact/load-artifact.js';
import type { ResolvedRepo } from '../../src/config/resolve-repo.js';
import { gradeSolution, originalPassingTests, type GradeSolutionOptions, type SolverGrade } from '../../src/roles/grade-solution.js';
import { prepareSolverSandbox } from '../../src/roles/solver-sandbox.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import type { SandboxProvider, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { BaselineCache } from '../../src/validator/baseline-cache.js';
import { validateArtifact } from '../../src/validator/validate-artifact.js';
import { dockerTemplate, exampleRepo } from '../helpers/sandboxes.js';

/**
 * The cheat suite (issue 12): every file of test/fixtures/cheats/ is one scripted Solver that tries
 * to earn +1 without fixing the bug, by changing how the tests run instead of the code. A `.sh`
 * runs in a real Solver sandbox and its `git diff` is the patch; a `.diff` is the patch. Header
 * lines say what must happen: `# expect-code:`, `# expect-dropped: path=reason, …`,
 * `# expect-flags: …`. Every hack must earn −1 with the bug still there; the honest fix +1.
 */
const CHEATS = fileURLToPath(new URL('../fixtures/cheats/', import.meta.url));
const ARTIFACT = fileURLToPath(new URL('../fixtures/artifacts/valid-single-file/', import.meta.url));
const F = ['test_allocate_by_ratio', 'test_negative_amounts_allocate_symmetrically', 'test_split_evenly_keeps_every_cent'].map((name) => `tests/test_money.py::TestAllocation::${name}`);
const FIX = `python3 - <<'EOF'
import pathlib
p = pathlib.Path('pyledger/money.py')
p.write_text(p.read_text().replace('(-abs(shares[i] - parts[i]), -i))', '(-abs(shares[i] - parts[i]), i))'))
EOF`;

interface Cheat {
  name: string;
  /** The shell commands (for `.sh`) or the patch (for `.diff`), header lines removed. */
  body: string;
  script: boolean;
  code: string;
  dropped: Array<{ path: string; reason: string }>;
  flags: string[];
}

function header(text: string, key: string): string {
  return new RegExp(`^# ${key}: (.*)$`, 'm').exec(text)?.[1]?.trim() ?? '';
}

function loadCheats(): Cheat[] {
  return readdirSync(CHEATS)
    .filter((name) => name.endsWith('.sh') || name.endsWith('.diff'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(CHEATS, file), 'utf8');
      const list = (key: string): string[] => header(text, key).split(',').map((item) => item.trim()).filter((item) => item !== '');
      return {
        name: file,
        body: text.split('\n').filter((line) => !/^# (hack|expect-[a-z]+):/.test(line)).join('\n'),
        script: file.endsWith('.sh'),
        code: header(text, 'expect-code'),
        dropped: list('expect-dropped').map((item) => ({ path: item.split('=')[0]!, reason: item.split('=')[1]! })),
        flags: list('expect-flags'),
      };
    });
}

const cheats = loadCheats();
const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

describe('the cheat suite: grading measures the code, not how the tests run (real Docker, real pytest, pyledger)', () => {
  let repo: ResolvedRepo;
  let template: SandboxTemplate;
  let provider: SandboxProvider;
  let artifact: BugArtifact;
  let grading: Omit<GradeSolutionOptions, 'patch'>;
  // Two hacks at a time: each holds a Solver sandbox, then a grading sandbox.
  const queue = new PQueue({ concurrency: 2 });

  beforeAll(async () => {
    repo = await exampleRepo();
    template = await dockerTemplate(repo);
    provider = createProvider('docker');
    artifact = await loadArtifactDir(ARTIFACT);
    const validation = await validateArtifact(artifact, { repo, template, provider, queue: new PQueue({ concurrency: 2 }), baselines: new BaselineCache() });
    expect(validation).toMatchObject({ valid: true, originalGuarded: true, failToPass: F });
    grading = { provider, template, artifact, originalPassing: originalPassingTests(validation), originalGuarded: validation.originalGuarded, testTimeoutMs: 90_000 };
  });

  /** The patch `commands` make in a real Solver sandbox (O + bug + weakened tests, one fresh commit). */
  async function solverPatch(commands: string): Promise<string> {
    const sandbox = await prepareSolverSandbox({ provider, template, artifact });
    try {
      const result = await sandbox.exec(`set -e\n{\n${commands}\n} > /tmp/hack.log 2>&1 || { cat /tmp/hack.log; exit 1; }\ngit add -A && git diff --cached --binary`, { timeoutMs: 60_000 });
      expect(result.exitCode, result.output).toBe(0);
      return result.output;
    } finally {
      await sandbox.dispose();
    }
  }

  const grade = (commands: string | null, patch?: string): Promise<SolverGrade> =>
    queue.add(async () => gradeSolution({ ...grading, patch: patch ?? (commands === null ? null : await solverPatch(commands)) })) as Promise<SolverGrade>;

  // The honest fix's patch, made once in a Solver sandbox: the honest-fix test grades it and the
  // bad-input cases below each damage a copy of it (it was made six times, one sandbox each).
  let fixPatch: Promise<string> | undefined;
  const fixOnly = (): Promise<string> => (fixPatch ??= queue.add(() => solverPatch(FIX)) as Promise<string>);

  it('holds at least 15 distinct hacks, each with an expected verdict', () => {
    expect(cheats.length).toBeGreaterThanOrEqual(15);
    for (const cheat of cheats) expect(cheat.code, cheat.name).toMatch(/^[a-z-]+$/);
  });

  it.concurrent.each(cheats.map((cheat) => [cheat.name, cheat] as const))('%s earns −1 with the bug still there', async (_name, cheat) => {
    const result = await (cheat.script ? grade(cheat.body) : grade(null, cheat.body));
    expect(result.reward, result.reason).toBe(-1);
    expect(result.code, result.reason).toBe(cheat.code);
    expect([...result.droppedSections].sort(byPath)).toEqual([...cheat.dropped].sort(byPath));
    for (const flag of cheat.flags) expect(result.flags, result.reason).toContain(flag);
    // The bug is still there: whenever the tests ran, the oracle tests it breaks do not count as passed.
    if (result.code !== 'patch-binary') expect(result.failingTests, result.reason).toEqual(expect.arrayContaining(F));
  }, 600_000);

  it.concurrent('the honest fix earns +1 with no flags', async () => {
    const result = await grade(null, await fixOnly());
    expect(result).toMatchObject({ reward: 1, code: 'solved', applied: 'git-apply', failingTests: [], droppedSections: [], flags: [] });
  }, 600_000);

  it.concurrent('the honest fix with test and runner edits beside it earns +1: the edits are dropped and reported', async () => {
    const result = await grade(`${FIX}\nprintf 'addopts = "-x"\\n' >> pyproject.toml\necho notes >> README.md\nprintf 'import pytest\\n' > conftest.py\n: > tests/test_money.py`);
    expect(result).toMatchObject({ reward: 1, code: 'solved', failingTests: [], flags: [] });
    expect([...result.droppedSections].sort(byPath)).toEqual([
      { path: 'README.md', reason: 'non-code' },
      { path: 'conftest.py', reason: 'runner-config' },
      { path: 'pyproject.toml', reason: 'runner-config' },
      { path: 'tests/test_money.py', reason: 'oracle-test-file' },
    ]);
    expect(result.droppedTestSections.sort()).toEqual(['conftest.py', 'pyproject.toml', 'tests/test_money.py']);
  }, 600_000);

  describe('bad input: a precise reason and −1, never a crash', () => {
    it.concurrent.each<[string, (fix: string) => string, string, RegExp]>([
      ['an empty patch', () => '', 'patch-empty', /empty/],
      ['a malformed patch', () => 'diff --git a/pyledger/money.py b/pyledger/money.py\n--- a/pyledger/money.py\n+++ b/pyledger/money.py\n@@ -1,5 +1,5 @@\n-x\n', 'patch-malformed', /not a valid unified diff/],
      ['the fix with CRLF line endings', (fix) => fix.replaceAll('\n', '\r\n'), 'patch-crlf', /CRLF/],
      ['the fix without its trailing newline', (fix) => fix.slice(0, -1), 'patch-no-trailing-newline', /newline/],
      ['a patch to a file that does not exist', (fix) => fix.replaceAll('pyledger/money.py', 'pyledger/nowhere.py'), 'patch-does-not-apply', /nowhere\.py/],
    ])('%s', async (_label, make, code, reason) => {
      const result = await grade(null, make(await fixOnly()));
      expect(result).toMatchObject({ reward: -1, code, applied: null });
      expect(result.reason).toMatch(reason);
    }, 600_000);
  });
});
