import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageRecipeSchema, limitsSchema, thresholdsSchema, type SetupStep } from '../../../src/config/repos-schema.js';
import { bwrapSetupCommands } from '../../../src/sandbox/bwrap/bwrap-template.js';
import { buildStep, hasNpmStep, hasPipStep } from '../../../src/sandbox/images/setup-step.js';
import { aptPackages, basePackages, baseRootfsHash } from '../../../src/sandbox/images/base-rootfs.js';

describe('buildStep', () => {
  it.each<[string, SetupStep, string, string]>([
    ['a shell string', 'make -C native', 'make -C native', 'make -C native'],
    ['pip words', { pip: '-r requirements.txt' }, 'pip: -r requirements.txt', 'python3 -m pip install -r requirements.txt'],
    ['a pip list, quoted', { pip: ['numpy', 'pandas<3'] }, "pip: numpy 'pandas<3'", "python3 -m pip install numpy 'pandas<3'"],
    ['uv', { uv: ['-e', '.'] }, 'uv: -e .', 'uv pip install --system --break-system-packages -e .'],
    ['npm ci', { npm: 'ci --ignore-scripts' }, 'npm: ci --ignore-scripts', 'npm ci --ignore-scripts\nstatus=$?\nrm -rf /tmp/ssr-npm-cache\nexit $status'],
  ])('%s', (_label, step, label, command) => {
    const built = buildStep(step);
    expect(built.label).toBe(label);
    expect(built.command.endsWith(command)).toBe(true);
  });

  // The repo itself installed as a copy would leave a pristine copy of its code beside the buggy one.
  it.each<[string, SetupStep, string, string]>([
    ['pip .', { pip: '.' }, 'pip: . (installed editable: -e .)', 'python3 -m pip install -e .'],
    ['pip with extras and more packages', { pip: "'.[test]' pytest" }, "pip: '.[test]' pytest (installed editable: -e '.[test]' pytest)", "python3 -m pip install -e '.[test]' pytest"],
    ['pip /repo as a list', { pip: ['--no-deps', '/repo/'] }, 'pip: --no-deps /repo/ (installed editable: --no-deps -e /repo/)', 'python3 -m pip install --no-deps -e /repo/'],
    ['uv ./', { uv: './' }, 'uv: ./ (installed editable: -e ./)', 'uv pip install --system --break-system-packages -e ./'],
    ['already editable', { pip: ['--editable', '.'] }, 'pip: --editable .', 'python3 -m pip install --editable .'],
    ['another directory', { pip: './vendor/lib ..' }, 'pip: ./vendor/lib ..', 'python3 -m pip install ./vendor/lib ..'],
  ])('installs the repo itself editable: %s', (_label, step, label, command) => {
    const built = buildStep(step);
    expect(built.label).toBe(label);
    expect(built.command.endsWith(command)).toBe(true);
  });

  it('says which installer is missing, in the words of the step, not bash\'s "command not found"', () => {
    const check = buildStep({ uv: 'six' }).command.split('\n')[0]!;
    const result = (() => {
      try {
        execFileSync('/bin/bash', ['-c', check], { env: { PATH: '/nonexistent' }, stdio: 'pipe' });
        return { status: 0, stderr: '' };
      } catch (error) {
        return error as { status: number; stderr: Buffer };
      }
    })();
    expect(result.status).toBe(127);
    expect(String(result.stderr)).toContain('uv is not installed in the image: add a step { pip: uv } before this one');
  });

  it('adds pip to the Debian rootfs only for recipes with a pip step', () => {
    expect(hasPipStep(['make', { uv: 'x' }])).toBe(false);
    expect(basePackages(imageRecipeSchema.parse({ setup: [{ pip: 'six' }] }))).toContain('python3-pip');
    expect(basePackages(imageRecipeSchema.parse({ setup: ['make'] }))).not.toContain('python3-pip');
  });

  it("adds Debian's nodejs and npm only for recipes with an npm step", () => {
    expect(hasNpmStep(['make', { pip: 'x' }])).toBe(false);
    expect(basePackages(imageRecipeSchema.parse({ setup: [{ npm: 'ci' }] }))).toContain('nodejs');
    expect(aptPackages(imageRecipeSchema.parse({ setup: [{ npm: 'ci' }] }))).toEqual(['npm']);
    expect(aptPackages(imageRecipeSchema.parse({ setup: ['make'] }))).toEqual([]);
    // A recipe without apt packages keeps the rootfs hash it had before they existed (no rebuild).
    expect(baseRootfsHash(imageRecipeSchema.parse({}))).toBe('8d09d2d80bf4');
    expect(baseRootfsHash(imageRecipeSchema.parse({ setup: [{ npm: 'ci' }] }))).not.toBe(baseRootfsHash(imageRecipeSchema.parse({ packages: ['nodejs'] })));
    expect(basePackages(imageRecipeSchema.parse({ setup: ['make'] }))).not.toContain('nodejs');
  });

  it.each([['install lodash'], [['install']]])('refuses npm arguments other than ci (%j): installs come from the lockfile', (npm) => {
    const parsed = imageRecipeSchema.safeParse({ setup: [{ npm }] });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('ssr installs a JS repo');
  });
});

describe('the npm step, run for real with the host npm', () => {
  const run = (dir: string): { status: number; stderr: string } => {
    const { command, env } = buildStep({ npm: 'ci' });
    try {
      execFileSync('/bin/bash', ['-c', command], { cwd: dir, env: { ...process.env, ...env }, stdio: 'pipe' });
      return { status: 0, stderr: '' };
    } catch (error) {
      const failed = error as { status: number; stderr: Buffer };
      return { status: failed.status, stderr: String(failed.stderr) };
    }
  };
  const repo = (files: Record<string, string>): string => {
    const dir = mkdtempSync(join(tmpdir(), 'ssr-npm-step-'));
    execFileSync('git', ['init', '-q', dir]);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };
  const PACKAGE = JSON.stringify({ name: 'demo', version: '1.0.0', private: true });

  it('refuses a repo without a lockfile, saying what to do', () => {
    const dir = repo({ 'package.json': PACKAGE });
    const result = run(dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('ssr: /repo has no package-lock.json (or npm-shrinkwrap.json)');
    expect(result.stderr).toContain('make one in the repo with npm install --package-lock-only');
    expect(result.stderr).toContain('commit package-lock.json');
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs from the lockfile and keeps node_modules out of git status', () => {
    const lock = JSON.stringify({ name: 'demo', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'demo', version: '1.0.0' } } });
    const dir = repo({ 'package.json': PACKAGE, 'package-lock.json': lock });
    mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'x', 'index.js'), '');
    expect(run(dir)).toEqual({ status: 0, stderr: '' });
    expect(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8')).toContain('/node_modules/');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).not.toContain('node_modules');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('bwrapSetupCommands', () => {
  const repo = (image: object) => ({
    id: 'demo', location: '/srv/demo', commit: 'a'.repeat(40), image: imageRecipeSchema.parse(image),
    thresholds: thresholdsSchema.parse({}), limits: limitsSchema.parse({}), setupOrigins: ['repos.yaml:9', 'repos.yaml:10'],
  });

  it('keeps shell steps', () => {
    expect(bwrapSetupCommands(repo({ setup: ['make'] }))).toEqual(['make']);
  });

  it.each([
    ['a pip step', { setup: ['make', { pip: 'six' }] }, 'repos.yaml:10: setup step `pip: six` installs into the image\'s Python, which a bubblewrap template cannot'],
    ['an npm step', { setup: ['make', { npm: 'ci' }] }, 'repos.yaml:10: setup step `npm: ci` installs from the npm registry, which a bubblewrap template build has no network for: use --sandbox docker'],
    ['a user base image', { base: 'swebench/env:1' }, 'demo: image.base swebench/env:1 is a Docker image; bubblewrap sandboxes only start from ssr\'s debian-python rootfs: use --sandbox docker'],
  ])('refuses %s clearly', (_label, image, message) => {
    expect(() => bwrapSetupCommands(repo(image))).toThrow(message);
  });
});
