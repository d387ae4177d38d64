import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectors } from '../../../src/onboarding/detectors/index.js';
import { repoFilesAt, type RepoFiles } from '../../../src/onboarding/repo-files.js';

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A fixture repo in tmp, committed, read the way ssr init reads one (its tree at HEAD). */
async function fixture(files: Record<string, string>): Promise<RepoFiles> {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-js-detect-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  return repoFilesAt(dir, execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
}

/** What the JS detectors (tried in their registry order, as init does for a javascript repo) answer. */
async function jsRunner(files: Record<string, string>) {
  const repo = await fixture(files);
  for (const detector of detectors.filter((candidate) => candidate.languages.includes('javascript'))) {
    const found = await detector.detect(repo);
    if (found) return found;
  }
  return undefined;
}

const pkg = (fields: object): string => JSON.stringify({ name: 'demo', version: '1.0.0', ...fields }, null, 2);
const dev = (...names: string[]) => ({ devDependencies: Object.fromEntries(names.map((name) => [name, '^1.0.0'])) });

describe('JS test runner detectors', () => {
  it.each<[string, Record<string, string>, string, string]>([
    ['jest from scripts.test', { 'package.json': pkg({ scripts: { test: 'jest --coverage' }, ...dev('jest') }) }, 'jest', 'package.json scripts.test: jest --coverage'],
    ['jest from jest.config.js alone', { 'package.json': pkg({}), 'jest.config.js': 'module.exports = {};\n' }, 'jest', 'jest.config.js'],
    ['jest from the package.json "jest" key', { 'package.json': pkg({ jest: { testEnvironment: 'node' } }) }, 'jest', 'package.json "jest" key'],
    ['vitest from scripts.test', { 'package.json': pkg({ scripts: { test: 'vitest run' } }) }, 'vitest', 'package.json scripts.test: vitest run'],
    ['vitest from vitest.config.ts', { 'package.json': pkg({}), 'vitest.config.ts': 'export default {};\n' }, 'vitest', 'vitest.config.ts'],
    ['mocha behind nyc and cross-env', { 'package.json': pkg({ scripts: { test: 'cross-env NODE_ENV=test nyc mocha test/' } }) }, 'mocha', 'package.json scripts.test: cross-env NODE_ENV=test nyc mocha test/'],
    ['mocha from .mocharc.yml', { 'package.json': pkg({}), '.mocharc.yml': 'spec: test\n' }, 'mocha', '.mocharc.yml'],
    ['mocha from a dependency only', { 'package.json': pkg(dev('mocha')) }, 'mocha', 'mocha in package.json dependencies'],
    ['tape', { 'package.json': pkg({ scripts: { test: 'tape test/*.js' }, ...dev('tape') }) }, 'tape', 'tape in package.json dependencies'],
    ['node-tap from `tap`', { 'package.json': pkg({ scripts: { test: 'tap' }, ...dev('tap') }) }, 'node-tap', 'package.json scripts.test: tap'],
    ['node-test from `node --test`', { 'package.json': pkg({ scripts: { test: 'node --test' } }), 'test/a.test.mjs': "import test from 'node:test';\n" }, 'node-test', 'node:test imported by test/a.test.mjs'],
    ['node-test from imports, no script', { 'package.json': pkg({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }), 'test/a.test.js': "const test = require('node:test');\n" }, 'node-test', 'node:test imported by test/a.test.js'],
    ['the script wins over another runner in devDependencies', { 'package.json': pkg({ scripts: { test: 'vitest run' }, ...dev('jest', 'vitest') }), 'jest.config.js': '' }, 'vitest', 'vitest in package.json dependencies'],
    ['a script that runs another through npm run', { 'package.json': pkg({ scripts: { test: 'npm run lint && npm run unit', lint: 'eslint .', unit: 'mocha' } }) }, 'mocha', 'package.json scripts.test: npm run lint && npm run unit'],
    ['build steps before the runner', { 'package.json': pkg({ scripts: { test: 'tsc -p . && node --test dist/' } }) }, 'node-test', 'package.json scripts.test: tsc -p . && node --test dist/'],
  ])('%s', async (_label, files, runner, evidence) => {
    const found = await jsRunner(files);
    expect(found).toMatchObject({ language: 'javascript', runner, testRunner: runner, supported: true });
    expect(found!.evidence).toContain(evidence);
  });

  it.each<[string, string, string]>([
    ['ava', 'ava --verbose', 'ava'],
    ['a custom script', 'node scripts/run-tests.js', 'node'],
    ['jasmine behind c8', 'c8 jasmine', 'jasmine'],
  ])('refuses %s as an unknown runner, naming the known ones and the own-script option', async (_label, test, runner) => {
    const found = await jsRunner({ 'package.json': pkg({ scripts: { test }, ...dev('mocha') }) });
    expect(found).toMatchObject({ runner, supported: false, evidence: [`package.json scripts.test: ${test}`] });
    expect(found!.testRunner).toBeUndefined();
    expect(found!.note).toContain('jest, vitest, mocha, node-test, tape, node-tap');
    expect(found!.note).toMatch(/test_script\.sh and test_parser\.py/);
  });

  describe('TypeScript test files a runner that starts them with plain node cannot run (sandbox Node 18)', () => {
    const ts = { 'tsconfig.json': '{}', 'src/a.ts': 'export const a = 1;\n' };
    it.each<[string, Record<string, string>, string]>([
      ['node-test, scripts.test with a loader', { ...ts, 'package.json': pkg({ scripts: { test: 'node --import tsx --test test/*.test.ts' }, ...dev('tsx') }), 'test/a.test.ts': "import test from 'node:test';\n" }, 'node-test'],
      ['node-test found by the node:test import in a .ts file', { ...ts, 'package.json': pkg({}), 'src/a.test.mts': "import { test } from 'node:test';\n" }, 'node-test'],
      ['node-test with .ts files under test/ of any name', { ...ts, 'package.json': pkg({ scripts: { test: 'tsc && node --test dist/' } }), 'test/parse.ts': '' }, 'node-test'],
      ['tape through ts-node', { ...ts, 'package.json': pkg({ scripts: { test: 'tape -r ts-node/register test/**/*.ts' }, ...dev('tape', 'ts-node') }), 'test/a.ts': '' }, 'tape'],
      ['node-tap', { ...ts, 'package.json': pkg({ scripts: { test: 'tap' }, ...dev('tap') }), 'test/a.test.cts': '', 'test/types.d.ts': '' }, 'node-tap'],
    ])('refuses %s, naming the files, the cause and a fix', async (_label, files, runner) => {
      const found = await jsRunner(files);
      expect(found).toMatchObject({ language: 'javascript', runner, supported: false });
      expect(found!.testRunner).toBeUndefined();
      expect(found!.note).toMatch(new RegExp(`^TypeScript test files \\(test/|^TypeScript test files \\(src/`));
      expect(found!.note).toContain(`cannot run under ${runner}`);
      expect(found!.note).toMatch(/Node 18, which has no type stripping and no TypeScript loader, so none of the suite would run/);
      expect(found!.note).toMatch(/Vitest .* Jest and a TypeScript transform/);
      expect(found!.note).not.toContain('.d.ts');
    });

    it('warns, and goes on, when only some of the tests are TypeScript', async () => {
      const found = await jsRunner({ ...ts, 'package.json': pkg({ scripts: { test: 'node --test' } }), 'test/a.test.js': "require('node:test');\n", 'test/b.test.ts': '' });
      expect(found).toMatchObject({ runner: 'node-test', testRunner: 'node-test', supported: true });
      expect(found!.warning).toMatch(/^TypeScript test files \(test\/b\.test\.ts\) cannot run .*only its JavaScript test files \(test\/a\.test\.js\) run/);
    });

    it.each<[string, Record<string, string>]>([
      ['Vitest, which runs TypeScript as is', { ...ts, 'package.json': pkg({ scripts: { test: 'vitest run' } }), 'test/a.test.ts': '' }],
      ['Jest, whose config can bring a transform', { ...ts, 'package.json': pkg({ scripts: { test: 'jest' } }), 'test/a.test.ts': '' }],
      ['node-test with JavaScript tests and TypeScript sources', { ...ts, 'package.json': pkg({ scripts: { test: 'node --test' } }), 'test/a.test.mjs': "import test from 'node:test';\n", 'test/types.d.ts': '' }],
    ])('leaves %s alone', async (_label, files) => {
      const found = await jsRunner(files);
      expect(found).toMatchObject({ supported: true });
      expect(found!.warning).toBeUndefined();
    });
  });

  it.each<[string, Record<string, string>]>([
    ['no package.json', { 'index.js': '', 'test/a.test.js': "require('node:test');\n" }],
    ['a package.json that is not JSON', { 'package.json': '{ nope', 'test/a.test.js': '' }],
    ['a package.json with no sign of a runner', { 'package.json': pkg({ dependencies: { lodash: '4' } }), 'index.js': '' }],
  ])('finds nothing with %s', async (_label, files) => {
    expect(await jsRunner(files)).toBeUndefined();
  });

  it('leaves Python repos to the Python detectors and JS repos to the JS ones', () => {
    expect(detectors.filter((detector) => detector.languages.includes('typescript')).map((detector) => detector.runner)).toEqual(['jest', 'vitest', 'mocha', 'tape', 'node-tap', 'node-test', 'unknown']);
    expect(detectors.filter((detector) => detector.languages.includes('python')).map((detector) => detector.runner)).toEqual(['pytest', 'unittest', 'doctest']);
  });
});
