import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentLimitsSchema } from '../../../../src/agent/agent-limits.js';
import { testRunnerSchema, thresholdsSchema } from '../../../../src/config/repos-schema.js';
import type { JsRunner } from '../../../../src/harness/js-test-files.js';
import { testFilesForRunner } from '../../../../src/harness/repo-test-files.js';
import { v8LinesScript } from '../../../../src/coverage/trace-script.js';
import { assetsDir } from '../../../../src/policy/procedural/injector/injector-assets.js';
import { classifyJsFiles } from '../../../../src/policy/procedural/injector/js-files.js';
import { jsTestScript } from '../../../../src/harness/js-test-script.js';
import { parseCoverage } from '../../../../src/policy/procedural/injector/repo-facts.js';
import { failsOnBehaviour, parseRunSummary } from '../../../../src/policy/procedural/injector/run-summary.js';
import { locateTest } from '../../../../src/policy/procedural/injector/test-ids.js';
import { readTestRunner } from '../../../../src/policy/procedural/prompt-runner.js';
import { injectorPrompts, solverPrompts } from '../../../../src/roles/role-prompts.js';
import { loadArtifactDir } from '../../../../src/artifact/load-artifact.js';

const LOGS = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'logs');
const SCRIPTS = join(assetsDir(), 'scripts');
const PARSERS: Record<string, string> = { jest: 'jest', vitest: 'vitest', mocha: 'mocha', tape: 'tape', 'node-tap': 'node-tap', 'node-test': 'node-test' };

/** summarize_run.py --kind js on a log, against a baseline where every test the parser saw passed. */
function summarize(runner: JsRunner, logFile: string, transform: (log: string) => string = (log) => log): ReturnType<typeof parseRunSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-js-summary-'));
  const log = transform(readFileSync(join(LOGS, logFile), 'utf8'));
  const parser = join(dir, 'parser.py');
  writeFileSync(parser, testFilesForRunner(runner).testParser);
  const statuses = JSON.parse(execFileSync('python3', [parser], { input: log, encoding: 'utf8' })) as Record<string, string>;
  writeFileSync(join(dir, 'run.json'), JSON.stringify(statuses));
  writeFileSync(join(dir, 'o.json'), JSON.stringify(Object.fromEntries(Object.keys(statuses).map((id) => [id, 'passed']))));
  writeFileSync(join(dir, 'run.log'), log);
  const out = execFileSync('python3', [join(SCRIPTS, 'summarize_run.py'), '--kind', 'js', '--log', join(dir, 'run.log'), '--statuses', join(dir, 'run.json'), '--baseline', join(dir, 'o.json')], { encoding: 'utf8' });
  return parseRunSummary(out);
}

describe('summarize_run.py --kind js: why each JS test failed, and where in its file', () => {
  it('reads a node-test.sh log whose TAP lines carry its nonce, ignoring untagged lines', () => {
    const nonce = 'ab'.repeat(16);
    const tagged = (log: string): string =>
      `not ok 9 - forged by code under test\n${log.trimEnd().split('\n').map((line) => `${nonce} ${line}`).join('\n')}\nssr-tap-nonce: ${nonce}\n`;
    const plain = summarize('node-test', 'node-test-failures.txt');
    const summary = summarize('node-test', 'node-test-failures.txt', tagged);
    expect(summary).toEqual(plain);
    expect(summary?.broken.map((f) => [f.id, f.exc])).toContainEqual(['test/math.test.mjs > add > adds small numbers', 'AssertionError']);
  });

  it.each<[JsRunner, string, [string, string, number | null][]]>([
    ['node-test', 'node-test-failures.txt', [
      // The file failed to load (an import of a missing export): its own path, as the parser reports it.
      ['test/broken.test.mjs', 'collection', null],
      ['test/math.test.mjs > add > adds small numbers', 'AssertionError', 8],
      ['test/math.test.mjs > add > calls a missing helper', 'ReferenceError', 15],
      ['test/math.test.mjs > add > reads a property of null', 'TypeError', 13],
    ]],
    ['node-test', 'js-node-test.txt', [
      ['test/broken.test.mjs', 'collection', null],
      ['test/math.test.mjs > math > fails # not a directive', 'AssertionError', 5],
      // Its error message quotes a TAP line inside the YAML block: still its own stack's line.
      ['test/math.test.mjs > math > nested group > deep fail', 'Error', 10],
      ['test/math.test.mjs > top level with subtests > sub b', 'AssertionError', 16],
      ['test/other.test.mjs > hook fails', 'Error', null],
    ]],
    ['jest', 'js-jest.txt', [
      ['test/broken.test.js', 'collection', null],
      ['test/calc.test.js > calc > fails', 'AssertionError', 3],
      ['test/other.test.js > top level', 'AssertionError', 1],
    ]],
    ['vitest', 'js-vitest.txt', [
      ['test/broken.test.mjs', 'collection', null],
      ['test/calc.test.mjs > calc > fails', 'AssertionError', 4],
      ['test/other.test.mjs > top level', 'AssertionError', 2],
    ]],
    ['mocha', 'js-mocha.txt', [
      ['test/calc.spec.js > calc fails', 'AssertionError', 4],
      ['test/calc.spec.js > hooked "before all" hook for "never runs"', 'Error', 12],
      ['test/other.spec.js > top level', 'AssertionError', 2],
    ]],
    // A printed "not ok" line comes first in tape's block; the failed assertion with diagnostics wins.
    ['tape', 'js-tape.txt', [
      ['test/calc.test.js > fails # with hash', 'AssertionError', 3],
      ['test/other.test.js > adds', 'AssertionError', 2],
    ]],
    ['node-tap', 'js-node-tap.txt', [
      ['test/calc.test.js > fails # with hash', 'AssertionError', 3],
      ['test/calc.test.js > throws', 'Error', 12],
      ['test/other.test.js > adds', 'Error', 2],
    ]],
  ])('%s (%s)', (runner, log, expected) => {
    expect(PARSERS[runner]).toBeDefined();
    const summary = summarize(runner, log);
    expect(summary).not.toBeNull();
    expect(summary!.broken.map((t) => [t.id, t.exc, t.line])).toEqual(expected);
    // Groups are the test files.
    for (const key of summary!.groups.keys()) expect(key).toMatch(/^test\/[\w.-]+$/);
  });

  it('counts a JS name or parse error as no behaviour, a TypeError or failed assertion as behaviour', () => {
    const js = (exc: string) => failsOnBehaviour({ id: 'x', exc, line: null }, 'javascript');
    expect(['ReferenceError', 'SyntaxError', 'collection', 'missing'].map(js)).toEqual([false, false, false, false]);
    expect(['AssertionError', 'TypeError', 'RangeError', 'Error'].map(js)).toEqual([true, true, true, true]);
    // Python's list is its own.
    expect(failsOnBehaviour({ id: 'x', exc: 'NameError', line: null })).toBe(false);
  });

  it('locates a JS test id in its file: the path, then the titles', () => {
    const suite = { kind: 'js', runner: 'node-test' } as const;
    const files = new Set(['test/a.test.mjs']);
    expect(locateTest('test/a.test.mjs > add > adds zero', suite, files)).toEqual({ file: 'test/a.test.mjs', qualifiedName: 'add > adds zero' });
    expect(locateTest('test/a.test.mjs', suite, files)).toEqual({ file: 'test/a.test.mjs', qualifiedName: '' });
    expect(locateTest('test/b.test.mjs > x', suite, files)).toBeNull();
  });
});

describe('the restricted test scripts', () => {
  const files = ['test/a.test.js', "test/it's b.test.js"];

  it.each(testRunnerSchema.options.filter((r): r is JsRunner => r !== 'pytest'))('%s: the default script, run on the given files only', (runner) => {
    const script = jsTestScript(runner, files);
    const base = testFilesForRunner(runner).testScript;
    execFileSync('bash', ['-n'], { input: script });
    // The reporter flags and report markers the default parser reads stay the default's.
    const command = base.split('\n').find((line) => /node_modules\/\.bin\/|node --test|node "\$file"|node "\$helpers\/wrapper\.cjs"/.test(line))!;
    expect(script).toContain(command.trim());
    expect(script).toContain("'test/it'\\''s b.test.js'");
    expect(script).not.toContain('find ');
    if (runner === 'jest') expect(script).toContain("--runTestsByPath test/a.test.js 'test/it'\\''s b.test.js'");
  });

  it('the node:test script runs exactly the listed files, under the names the parser reads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssr-js-script-'));
    const script = jsTestScript('node-test', ['test/a.test.mjs']).replace('cd /repo', `cd ${dir}`).replace(/node --require "\$freeze" --test --test-reporter="\$reporter" "\$file"/, 'echo "ran $file"');
    const out = execFileSync('bash', ['-c', script], { encoding: 'utf8' });
    // The first line commits to the nonce; each file's name line carries the nonce the script
    // declares last (tap_parser.py reads only those).
    expect(out).toMatch(/^ssr-tap-commit: [0-9a-f]{64}\n([0-9a-f]{32}) ssr-test-file: test\/a\.test\.mjs\nran test\/a\.test\.mjs\nssr-tap-nonce: \1\n$/);
  });
});

describe('JS files, runner and coverage', () => {
  it('splits JS/TS files into tests and code, leaving out declarations, bundles and tooling config', () => {
    const { testFiles, codeFiles } = classifyJsFiles([
      'src/a.mjs', 'src/b.ts', 'src/types.d.ts', 'lib/c.cjs', 'test/a.test.mjs', 'test/helpers.js', 'src/x.spec.ts', '__tests__/y.js',
      'vitest.config.ts', 'jest.config.js', '.eslintrc.js', 'dist/bundle.js', 'vendor/z.min.js', 'scripts/build.mjs', 'README.md', 'src/tool.py',
    ]);
    expect([...testFiles].sort()).toEqual(['src/x.spec.ts', 'test/a.test.mjs']);
    expect(codeFiles).toEqual(['lib/c.cjs', 'src/a.mjs', 'src/b.ts']);
  });

  it('reads the runner back from the role prompts; a Python repo\'s prompts name none', async () => {
    const limits = agentLimitsSchema.parse({});
    const settings = { thresholds: thresholdsSchema.parse({}), testTimeoutMs: 90_000 };
    for (const runner of testRunnerSchema.options.filter((r) => r !== 'pytest')) {
      const prompts = injectorPrompts('direct', { ...settings, testRunner: runner }, limits);
      expect(readTestRunner(prompts.systemPrompt, prompts.userPrompt)).toBe(runner);
    }
    const python = injectorPrompts('removal', settings, limits);
    expect(readTestRunner(python.systemPrompt, python.userPrompt)).toBeNull();
    const artifact = await loadArtifactDir(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'artifacts', 'valid-single-file'));
    const solver = solverPrompts(artifact, limits, 'node-tap');
    expect(readTestRunner(solver.systemPrompt, solver.userPrompt)).toBe('node-tap');
  });

  it('v8_lines.py: a line ran when the innermost V8 range at its first character counted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssr-v8-'));
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, 'src'), { recursive: true });
    mkdirSync(join(dir, 'cov'));
    const source = 'export function used(x) {\n  if (x) {\n    return 1;\n  }\n  return 2;\n}\n\nexport function unused() {\n  return 3;\n}\n';
    writeFileSync(join(repo, 'src', 'm.mjs'), source);
    const at = (text: string) => source.indexOf(text);
    // The module ran once; used() ran twice, never with a truthy x; unused() never.
    const functions = [
      { functionName: '', ranges: [{ startOffset: 0, endOffset: source.length, count: 1 }] },
      { functionName: 'used', ranges: [{ startOffset: at('function used'), endOffset: at('\n\nexport function unused'), count: 2 }, { startOffset: at('{\n    return 1'), endOffset: at('\n  return 2'), count: 0 }] },
      { functionName: 'unused', ranges: [{ startOffset: at('function unused'), endOffset: source.length - 1, count: 0 }] },
    ];
    const url = `file://${repo}/src/m.mjs`;
    writeFileSync(join(dir, 'cov', 'coverage-1.json'), JSON.stringify({ result: [{ url, functions }, { url: 'node:internal/x', functions: [] }] }));
    writeFileSync(join(dir, 'code.txt'), 'src/m.mjs\nsrc/absent.mjs\n');
    const script = v8LinesScript().replaceAll('file:///repo/', `file://${repo}/`).replaceAll('"/repo"', JSON.stringify(repo));
    writeFileSync(join(dir, 'v8_lines.py'), script);
    const out = execFileSync('python3', [join(dir, 'v8_lines.py'), join(dir, 'code.txt'), join(dir, 'cov')], { encoding: 'utf8' });
    // Line 3 and the brace closing its block (4) are inside the block that never ran; so is unused()'s body.
    expect(out).toBe('@@cov src/m.mjs 1-2,5-6,8\n');
    expect([...parseCoverage(out).get('src/m.mjs')!]).toEqual([1, 2, 5, 6, 8]);
  });
});
