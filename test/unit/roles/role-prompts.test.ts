import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentLimitsSchema } from '../../../src/agent/agent-limits.js';
import { loadArtifactDir } from '../../../src/artifact/load-artifact.js';
import { testRunnerSchema, thresholdsSchema, type TestRunner, type Thresholds } from '../../../src/config/repos-schema.js';
import { testFilesForRunner } from '../../../src/harness/repo-test-files.js';
import { RUNNER_NAMES, runnerNamed } from '../../../src/harness/runner-names.js';
import { injectorStrategySchema, type InjectorStrategy } from '../../../src/roles/injector-strategy.js';
import { PROMPT_NAMES, promptsDir } from '../../../src/roles/render-prompt.js';
import { injectorPrompts, solverPrompts, solverStatement, solverTaskDiff } from '../../../src/roles/role-prompts.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/artifacts/valid-single-file/', import.meta.url));
const limits = agentLimitsSchema.parse({ commandTimeoutMs: 45_000 });
const strategies = injectorStrategySchema.options;

const configs: Array<[string, Thresholds, number]> = [
  ['the defaults', thresholdsSchema.parse({}), 90_000],
  ['custom thresholds', { min_passing_tests: 37, min_changed_files: 3, min_failing_tests: 5, max_failing_tests: 25, max_failing_files: 3 }, 125_500],
];

describe('injector prompts', () => {
  describe.each(configs)('with %s', (_label, thresholds, testTimeoutMs) => {
    it.each(strategies)('%s renders every threshold, the rules and its strategy', (strategy: InjectorStrategy) => {
      const { systemPrompt, userPrompt } = injectorPrompts(strategy, { thresholds, testTimeoutMs }, limits);
      expect(systemPrompt).toContain('at most 45 seconds');
      expect(userPrompt).toContain(`at least ${thresholds.min_passing_tests} tests pass and none fail`);
      expect(userPrompt).toContain(`changes at least ${thresholds.min_changed_files} code file(s)`);
      expect(userPrompt).toContain(`at least ${thresholds.min_failing_tests} test(s) that passed`);
      expect(userPrompt).toContain(`within ${Math.ceil(testTimeoutMs / 1000)} seconds`);
      for (const file of ['test_files.txt', 'test_script.sh', 'test_parser.py', 'bug_inject.diff', 'test_weaken.diff']) expect(userPrompt).toContain(file);
      expect(userPrompt).toMatch(/No hints: no comment/);
      expect(userPrompt).toMatch(/Do not leave original code behind in comments/);
      expect(userPrompt).toMatch(/Every code file you change must be exercised by the selected tests/);
      expect(userPrompt).toMatch(/Never comment tests out/);
      expect(`${systemPrompt}${userPrompt}`).not.toMatch(/\{\{|\}\}/);
    });
  });

  it.each<[InjectorStrategy, RegExp[]]>([
    ['removal', [/Strategy: remove functionality/, /compatibility fixes/, /NameError/]],
    ['history', [/git log -L/, /git show/, /fixed a bug, handled an edge case or made something faster/]],
    ['direct', [/Strategy: inject a bug of your choice/]],
  ])('%s carries its own instructions', (strategy, patterns) => {
    const { userPrompt } = injectorPrompts(strategy, { thresholds: thresholdsSchema.parse({}), testTimeoutMs: 90_000 }, limits);
    for (const pattern of patterns) expect(userPrompt).toMatch(pattern);
  });
});

const jsRunners = testRunnerSchema.options.filter((runner): runner is Exclude<TestRunner, 'pytest'> => runner !== 'pytest');

describe('injector prompts name the repo\'s language and runner', () => {
  const settings = (testRunner?: TestRunner) => ({ thresholds: thresholdsSchema.parse({}), testTimeoutMs: 90_000, ...(testRunner ? { testRunner } : {}) });

  it.each(strategies)('%s: a pytest repo gets the prompt it got before runners were named', (strategy) => {
    const plain = injectorPrompts(strategy, settings(), limits);
    expect(injectorPrompts(strategy, settings('pytest'), limits)).toEqual(plain);
    expect(plain.userPrompt).toContain('(for pytest: `cd /repo && python3 -m pytest -rA -p no:cacheprovider <files>`)');
    expect(plain.userPrompt).toContain('git diff HEAD -- path/to/module.py other/module.py > /ssr/artifact/bug_inject.diff');
    expect(plain.userPrompt).not.toMatch(/JavaScript|node_modules|ssr-test-file/);
  });

  it.each(jsRunners.flatMap((runner) => strategies.map((strategy) => [runner, strategy] as const)))('%s, %s: language, runner, its commands, and ssr\'s script and parser as the example', (runner, strategy) => {
    const { systemPrompt, userPrompt } = injectorPrompts(strategy, settings(runner), limits);
    const files = testFilesForRunner(runner);
    expect(userPrompt).toContain(`## The repository: JavaScript or TypeScript, tested with ${RUNNER_NAMES[runner]}`);
    expect(userPrompt).toContain(`its tests run with ${RUNNER_NAMES[runner]}:`);
    expect(userPrompt).toContain(files.testScript.trimEnd());
    expect(userPrompt).toContain(files.testParser.trimEnd());
    expect(userPrompt).toContain('git diff HEAD -- src/module.js src/other.js > /ssr/artifact/bug_inject.diff');
    expect(userPrompt).not.toMatch(/python3 -m pytest|tests\/test_module\.py|NameError/);
    // The thresholds, rules and strategy stay.
    expect(userPrompt).toContain('at least 10 tests pass and none fail');
    expect(userPrompt).toMatch(/Never comment tests out/);
    expect(`${systemPrompt}${userPrompt}`).not.toMatch(/\{\{|\}\}/);
    // The procedural policy reads the runner back from the phrase.
    expect(runnerNamed(RUNNER_NAMES[runner])).toBe(runner);
  });

  it('the removal strategy names the JavaScript errors of trivial breakage', () => {
    const { userPrompt } = injectorPrompts('removal', settings('jest'), limits);
    expect(userPrompt).toContain('`ReferenceError`, a failed import');
    expect(userPrompt).toMatch(/Strategy: remove functionality/);
  });
});

describe('solver prompt', () => {
  it('names a JS repo\'s language and runner after the task, and no test script, parser or file list', async () => {
    const artifact = await loadArtifactDir(FIXTURE);
    const python = solverPrompts(artifact, limits);
    expect(solverPrompts(artifact, limits, 'pytest')).toEqual(python);
    const js = solverPrompts(artifact, limits, 'vitest');
    expect(js.systemPrompt).toBe(python.systemPrompt);
    const [head, tail] = python.userPrompt.split('\n\nWhen you are done');
    expect(js.userPrompt).toBe(`${head}\n\nThe code is JavaScript or TypeScript, and its tests run with Vitest: \`npx vitest run <file>\` runs one test file. The dependencies are installed in \`node_modules\` (there is no network).\n\nWhen you are done${tail}`);
    expect(js.userPrompt).not.toContain('ssr-json-report');
  });


  it('wraps the reversed test_weaken.diff in the fixed method §4 template, and reveals nothing else', async () => {
    const artifact = await loadArtifactDir(FIXTURE);
    const { systemPrompt, userPrompt } = solverPrompts(artifact, limits);
    expect(userPrompt).toMatch(/^I'm improving the test suite of the repository in \/repo with the changes below, but the code fails/);
    expect(userPrompt).toContain('make sure the relevant existing tests pass too');
    const reversed = solverTaskDiff(artifact);
    expect(userPrompt).toContain(reversed.trimEnd());
    // The reversed diff adds back the deleted tests.
    expect(reversed).toContain('+    def test_split_evenly_keeps_every_cent(self, usd):');
    expect(reversed).not.toMatch(/^- {4}def test_split_evenly/m);
    // No bug diff, test script, parser or test list; no hint of the injection.
    for (const secret of [artifact.bugInject.split('\n').find((l) => l.startsWith('+ '))!, '-p no:cacheprovider', 'short test summary info', 'test_files.txt', 'bug_inject']) {
      expect(`${systemPrompt}\n${userPrompt}`).not.toContain(secret);
    }
  });
});

describe('solver statement', () => {
  it('is the Solver prompt without the ssr harness instructions (the SWE-bench problem_statement)', async () => {
    const artifact = await loadArtifactDir(FIXTURE);
    const statement = solverStatement(artifact);
    const { userPrompt } = solverPrompts(artifact, limits);
    expect(statement).toMatch(/^I'm improving the test suite of this repository with the changes below/);
    expect(statement).toContain(solverTaskDiff(artifact).trimEnd());
    expect(statement).not.toMatch(/\/repo|\/ssr|pred_patch/);
    expect(userPrompt.startsWith(statement.replace('of this repository', 'of the repository in /repo'))).toBe(true);
    expect(userPrompt.slice(statement.length + 'the repository in /repo'.length - 'this repository'.length)).toMatch(/^\n\nWhen you are done, save all your changes as one diff/);
  });
});

describe('prompts folder', () => {
  it.each(PROMPT_NAMES)('%s.md exists next to the package root', (name) => {
    expect(readFileSync(join(promptsDir(), `${name}.md`), 'utf8').length).toBeGreaterThan(100);
  });
});

describe('solverTaskDiff on a doctest host', () => {
  const weaken = [
    'diff --git a/pkg/more.py b/pkg/more.py',
    '--- a/pkg/more.py',
    '+++ b/pkg/more.py',
    '@@ -2,7 +2,4 @@ def chunked(xs, n):',
    '     """Split xs.',
    ' ',
    '-        >>> chunked([1, 2, 3, 4], 2)',
    '-        [[1, 2], [3, 4]]',
    '-',
    '     """',
    '     n = n + 1',
    '',
  ].join('\n');

  it('shows the examples to bring back without the code lines around them', () => {
    const artifact = { bugInject: '', testWeaken: weaken, testFiles: ['pkg/more.py'], testScript: '', testParser: '' };
    const reversed = solverTaskDiff(artifact);
    expect(reversed).toContain('@@ -3,0 +4,3 @@');
    expect(reversed).toContain('+        >>> chunked([1, 2, 3, 4], 2)\n+        [[1, 2], [3, 4]]\n+\n');
    expect(reversed).not.toContain('n = n + 1');
  });
});
