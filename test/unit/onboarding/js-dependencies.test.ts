import { describe, expect, it } from 'vitest';
import { jsDependencies } from '../../../src/onboarding/js-dependencies.js';
import { repoFilesOf } from '../../../src/onboarding/repo-files.js';

const lock = (packages: Record<string, object>) => JSON.stringify({ name: 'demo', lockfileVersion: 3, packages: { '': { name: 'demo' }, ...packages } });

describe('jsDependencies', () => {
  it('makes an npm ci step of a package-lock.json', async () => {
    expect(await jsDependencies(repoFilesOf({ 'package.json': '{}', 'package-lock.json': lock({ 'node_modules/a': {}, 'node_modules/b': {} }) }))).toEqual({
      status: 'locked',
      hints: [{ file: 'package-lock.json', detail: 'lockfileVersion 3, 2 package(s)', step: { npm: 'ci' } }],
    });
  });

  it('takes npm-shrinkwrap.json too, and names the packages that run install scripts (native builds) with both fixes', async () => {
    const result = await jsDependencies(repoFilesOf({ 'npm-shrinkwrap.json': lock({ 'node_modules/bcrypt': { hasInstallScript: true }, 'node_modules/x/node_modules/@s/canvas': { hasInstallScript: true }, 'node_modules/y': {} }) }));
    expect(result.status).toBe('locked');
    const hints = result.status === 'locked' ? result.hints : [];
    expect(hints[0]).toMatchObject({ file: 'npm-shrinkwrap.json', step: { npm: 'ci' } });
    expect(hints[1]).toEqual({ file: 'npm-shrinkwrap.json', detail: expect.stringMatching(/^2 package\(s\) run install scripts at npm ci \(native builds\?\): bcrypt, @s\/canvas; .*image\.packages \(e\.g\. build-essential\).*\{ npm: "ci --ignore-scripts" \}/) });
  });

  it.each([
    ['no lockfile', { 'package.json': '{}' }, /^no package-lock\.json or npm-shrinkwrap\.json at HEAD: .*npm install --package-lock-only/],
    ['only yarn and pnpm lockfiles', { 'package.json': '{}', 'yarn.lock': '', 'pnpm-lock.yaml': '' }, /\(yarn\.lock, pnpm-lock\.yaml is not read by npm ci\)/],
    ['a lockfile that is not JSON', { 'package-lock.json': '<<<<<<< HEAD' }, /package-lock\.json is not valid JSON: .*npm install --package-lock-only/],
  ])('refuses %s, saying how to make one', async (_label, files, why) => {
    const result = await jsDependencies(repoFilesOf(files));
    expect(result).toEqual({ status: 'no-lockfile', why: expect.stringMatching(why) });
  });
});
