import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadArtifactDir } from '../../src/artifact/load-artifact.js';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { runTests } from '../../src/harness/run-tests.js';
import { gradeSolution, type GradeSolutionOptions } from '../../src/roles/grade-solution.js';
import { solverTaskDiff } from '../../src/roles/role-prompts.js';
import { prepareSolverSandbox } from '../../src/roles/solver-sandbox.js';
import { runSolverEpisode } from '../../src/roles/solver-episode.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { ScriptedPolicy } from '../../src/policy/scripted-policy.js';
import { shellQuote } from '../../src/util/shell-quote.js';
import { passedIds } from '../../src/validator/check-helpers.js';
import { dockerTemplate, exampleRepo, withSandbox } from '../helpers/sandboxes.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/artifacts/valid-single-file/', import.meta.url));
/** The three oracle tests the fixture's bug breaks (test/fixtures/artifacts/README.md). */
const F = ['test_allocate_by_ratio', 'test_negative_amounts_allocate_symmetrically', 'test_split_evenly_keeps_every_cent'].map(
  (name) => `tests/test_money.py::TestAllocation::${name}`,
);
const BUGGY_LINE = 'key=lambda i: (-abs(shares[i] - parts[i]), -i))';
const ORIGINAL_LINE = 'key=lambda i: (-abs(shares[i] - parts[i]), i))';
const FIX = `python3 - <<'EOF'
import pathlib
p = pathlib.Path('pyledger/money.py')
p.write_text(p.read_text().replace(${JSON.stringify(BUGGY_LINE)}, ${JSON.stringify(ORIGINAL_LINE)}))
EOF`;

async function sh(sandbox: Sandbox, command: string): Promise<string> {
  const result = await sandbox.exec(command, { timeoutMs: 60_000 });
  return result.output.trim();
}

describe('the Solver sandbox and grading (real Docker, real pytest)', () => {
  let template: SandboxTemplate;
  let provider: SandboxProvider;
  let artifact: BugArtifact;
  let grading: Omit<GradeSolutionOptions, 'patch'>;

  beforeAll(async () => {
    const repo = await exampleRepo();
    template = await dockerTemplate(repo);
    provider = createProvider('docker');
    artifact = await loadArtifactDir(FIXTURE);
    const original = await withSandbox(template, (sandbox) => runTests(sandbox, { ...artifact, timeoutMs: 90_000 }));
    grading = { provider, template, artifact, originalPassing: passedIds(original.statuses), testTimeoutMs: 90_000 };
    expect(grading.originalPassing).toHaveLength(90);
  });

  it('has one fresh commit, the buggy and weakened code, an empty scratch dir, and no artifact file anywhere', async () => {
    const sandbox = await prepareSolverSandbox({ provider, template, artifact });
    try {
      expect(await sh(sandbox, 'git rev-list --all --count; git log --all --format=%s; git reflog | wc -l; git stash list | wc -l; git status --porcelain | wc -l')).toBe(
        '1\nInitial commit\n1\n0\n0',
      );
      expect(await sh(sandbox, 'git for-each-ref --format="%(refname)"')).toBe('refs/heads/main');
      expect(await sh(sandbox, 'git config --get-regexp "^remote\\." | wc -l')).toBe('0');
      expect(await sh(sandbox, 'ls -A /ssr | wc -l')).toBe('0');
      expect(await sh(sandbox, `grep -cF ${shellQuote(BUGGY_LINE)} pyledger/money.py`)).toBe('1');
      expect(await sh(sandbox, 'grep -c "def test_split_evenly_keeps_every_cent" tests/test_money.py')).toBe('0');
      expect(await sh(sandbox, 'find /repo -name __pycache__ | wc -l')).toBe('0');

      const names = ['test_script.sh', 'test_parser.py', 'test_files.txt', 'bug_inject.diff', 'test_weaken.diff', 'pred_patch.diff', '*.orig', '*.rej'];
      const find = `find / \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o \\( ${names.map((n) => `-name ${shellQuote(n)}`).join(' -o ')} \\) -print`;
      expect(await sh(sandbox, find)).toBe('');
      // Text only the artifact (or the original code and tests) holds: none of it may be anywhere on disk.
      const secrets = [
        artifact.testScript.trim().split('\n').at(-1)!, // the pytest command line of test_script.sh
        'STATUS = {"PASSED": "passed"', // test_parser.py
        artifact.bugInject.split('\n').find((line) => line.startsWith('index '))!,
        artifact.testWeaken.split('\n').find((line) => line.startsWith('index '))!,
        ORIGINAL_LINE,
        'def test_split_evenly_keeps_every_cent',
      ];
      const grep = `grep -rlsF --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev ${secrets.map((s) => `-e ${shellQuote(s)}`).join(' ')} / ; echo "exit $?"`;
      expect(await sh(sandbox, grep)).toBe('exit 1');
    } finally {
      await sandbox.dispose();
    }
  });

  it('a Solver episode sees one commit, fixes the code, submits, and is graded +1', async () => {
    const policy = new ScriptedPolicy([
      // /ssr holds only the bash tool's own state (.shell).
      { toolCall: { name: 'bash', arguments: { command: 'git log --all --oneline | wc -l; ls -A /ssr' } } },
      { toolCall: { name: 'edit', arguments: { path: 'pyledger/money.py', search: BUGGY_LINE.replace('key=', ''), replace: 'x' } } },
      { toolCall: { name: 'bash', arguments: { command: FIX } } },
      { toolCall: { name: 'bash', arguments: { command: 'git add -A && git diff --cached > /ssr/pred_patch.diff' } } },
      { toolCall: { name: 'submit', arguments: { patch: '/ssr/pred_patch.diff' } } },
      { content: 'Fixed the tie-break order in Money.allocate.' },
    ]);
    const episode = await runSolverEpisode({ policy, template, provider, artifact, episodeId: 'isolation-1', limits: { maxTurns: 10 } });
    expect(episode.exit.exitStatus).toBe('submitted');
    const observations = policy.requests.map((r) => r.messages.at(-1)!.content);
    expect(observations[1]).toMatch(/^1\n\.shell\n/);
    // The edit's search is not a whole line: an error result, not the end of the episode.
    expect(observations[2]).toMatch(/no match|whole line/i);
    expect(policy.requests[0]!.messages[1]!.content).toContain(solverTaskDiff(artifact).trimEnd());
    expect(episode.patch).toContain(`+        order = sorted(range(len(shares)), ${ORIGINAL_LINE}`);
    const grade = await gradeSolution({ ...grading, patch: episode.patch });
    expect(grade).toMatchObject({ reward: 1, applied: 'git-apply', failingTests: [], droppedTestSections: [] });
  });

  /** A patch made in a real Solver sandbox by `commands`, as the Solver would make it. */
  async function solverPatch(commands: string): Promise<string> {
    const sandbox = await prepareSolverSandbox({ provider, template, artifact });
    try {
      const result = await sandbox.exec(`set -e\n${commands}\ngit add -A && git diff --cached`, { timeoutMs: 60_000 });
      expect(result.exitCode, result.output).toBe(0);
      return result.output;
    } finally {
      await sandbox.dispose();
    }
  }

  const restoreTests = (): string => `cat > /tmp/task.diff <<'EOF'\n${solverTaskDiff(artifact)}EOF\ngit apply /tmp/task.diff`;

  it('editing the test files gains nothing: putting the hidden tests back without fixing the code is −1', async () => {
    const patch = await solverPatch(restoreTests());
    expect(patch).toContain('+    def test_split_evenly_keeps_every_cent(self, usd):');
    const grade = await gradeSolution({ ...grading, patch });
    expect(grade).toMatchObject({ reward: -1, droppedTestSections: ['tests/test_money.py'], failingTests: F });
  });

  it('editing the test files gains nothing: tests rewritten to expect the buggy result are restored, −1', async () => {
    const patch = await solverPatch(
      `${restoreTests()}\nsed -i 's/usd("33.34"), usd("33.33"), usd("33.33")/usd("33.33"), usd("33.33"), usd("33.34")/' tests/test_money.py`,
    );
    const grade = await gradeSolution({ ...grading, patch });
    expect(grade.reward).toBe(-1);
    expect(grade.failingTests).toEqual(F);
  });

  it('a conftest.py hook that marks every test passed gains nothing: it is dropped, −1', async () => {
    const hook = [
      'import pytest',
      '@pytest.hookimpl(hookwrapper=True)',
      'def pytest_runtest_makereport(item, call):',
      '    outcome = yield',
      '    report = outcome.get_result()',
      '    report.outcome = "passed"',
    ].join('\n');
    const patch = await solverPatch(`cat > tests/conftest_extra.py <<'EOF'\n${hook}\nEOF\ncat tests/conftest_extra.py >> tests/conftest.py && rm tests/conftest_extra.py`);
    expect(patch).toContain('pytest_runtest_makereport');
    const grade = await gradeSolution({ ...grading, patch });
    expect(grade).toMatchObject({ reward: -1, droppedTestSections: ['tests/conftest.py'], failingTests: F });
  });

  it('a real fix made together with test edits still applies (test sections are dropped) and earns +1', async () => {
    const patch = await solverPatch(`${restoreTests()}\n${FIX}`);
    const grade = await gradeSolution({ ...grading, patch });
    expect(grade).toMatchObject({ reward: 1, applied: 'git-apply', failingTests: [], droppedTestSections: ['tests/test_money.py'] });
  });

  it.each<[string, string | null, RegExp]>([
    ['no patch', null, /no patch was submitted/],
    ['a patch that does not apply', 'diff --git a/pyledger/money.py b/pyledger/money.py\n--- a/pyledger/money.py\n+++ b/pyledger/money.py\n@@ -1,1 +1,1 @@\n-no such line\n+x\n', /does not apply/],
  ])('%s is −1', async (_label, patch, reason) => {
    const grade = await gradeSolution({ ...grading, patch });
    expect(grade).toMatchObject({ reward: -1, applied: null });
    expect(grade.reason).toMatch(reason);
  });
});
