import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueEntrySchema, type CatalogueEntry } from '../../../src/catalogue/catalogue-entry-schema.js';
import { fetchNpmPackage, fileIntegrity, npmTarballName } from '../../../src/catalogue/fetch-npm-package.js';
import { materialiseEntry } from '../../../src/catalogue/materialise-entry.js';
import { catalogueRepoEntry } from '../../../src/catalogue/write-catalogue-repos.js';
import { parseCatalogueEntry } from '../../../src/catalogue/load-catalogue.js';
import { repoEntrySchema } from '../../../src/config/repos-schema.js';

const MANIFEST = { name: 'ssr-demo', version: '1.0.0', devDependencies: { tape: '^5.0.0', eslint: '^8.0.0' } };
const LOCK = { name: 'ssr-demo', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'ssr-demo', version: '1.0.0', devDependencies: { tape: '^5.0.0' } } } };

/** A real npm-style tarball (one `package/` folder) in `cache`, under the name npm pack gives it. */
function packTarball(cache: string, files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'ssr-npm-pkg-'));
  for (const [path, text] of Object.entries({ 'package.json': JSON.stringify(MANIFEST), ...files })) {
    mkdirSync(join(root, 'package', path, '..'), { recursive: true });
    writeFileSync(join(root, 'package', path), text);
  }
  mkdirSync(cache, { recursive: true });
  const tarball = join(cache, npmTarballName('ssr-demo', '1.0.0'));
  execFileSync('tar', ['-czf', tarball, '-C', root, 'package']);
  return fileIntegrity(tarball);
}

const WITH_TESTS = { 'index.js': 'module.exports = (x) => 2 * x;\n', 'test/index.js': "require('tape')('doubles', (t) => { t.equal(require('..')(2), 4); t.end(); });\n" };

function npmEntry(integrity: string, source: Record<string, unknown> = {}, rest: Record<string, unknown> = {}): CatalogueEntry {
  return catalogueEntrySchema.parse({
    id: 'demo',
    description: 'a demo package',
    source: { type: 'npm', package: 'ssr-demo', version: '1.0.0', integrity, dev_dependencies: ['tape'], ...source },
    style: 'tape',
    test: { runner: 'tape' },
    history: 'single-commit',
    image: { setup: [{ npm: 'ci --ignore-scripts' }] },
    measured: { passing: 1, failing: 0, clean_suite_s: 0.1, on: 'test' },
    ...rest,
  });
}

function folders(): { dest: string; npmCache: string; npmLocks: string; debCache: string } {
  const root = mkdtempSync(join(tmpdir(), 'ssr-npm-cat-'));
  const npmLocks = join(root, 'npm-locks');
  mkdirSync(npmLocks);
  writeFileSync(join(npmLocks, 'demo.package-lock.json'), `${JSON.stringify(LOCK, null, 2)}\n`);
  return { dest: join(root, 'repos'), npmCache: join(root, 'npm'), npmLocks, debCache: join(root, 'debs') };
}

const git = (repo: string, ...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();

describe('npm catalogue entries: the schema', () => {
  const integrity = `sha512-${'A'.repeat(86)}==`;
  it.each([
    ['an upper-case package name', { package: 'Express' }, /source\.package.*expected an npm package name/],
    ['a path for a package name', { package: '../evil' }, /source\.package.*expected an npm package name/],
    ['a version range', { version: '^1.0.0' }, /source\.version.*expected an exact version/],
    ['a sha1 integrity', { integrity: 'sha1-abc' }, /source\.integrity.*sha512 integrity/],
    ['an unknown field', { tag: 'latest' }, /source/],
    ['a devDependency that is a path', { dev_dependencies: ['../x'] }, /dev_dependencies.*expected an npm package name, optionally with @<version range>/],
  ])('refuses %s, naming the field', (_name, source, message) => {
    const text = JSON.stringify({ ...npmEntry(integrity), source: { type: 'npm', package: 'ssr-demo', version: '1.0.0', integrity, ...source } });
    expect(() => parseCatalogueEntry(text, '/catalogue/demo.yaml')).toThrow(message);
  });

  it('takes a scoped package name', () => {
    expect(npmEntry(integrity, { package: '@scope/some.pkg_1' }).source).toMatchObject({ package: '@scope/some.pkg_1' });
  });

  it('refuses an npm entry run by pytest or installed without `npm: ci`', () => {
    const base = { ...npmEntry(integrity) } as Record<string, unknown>;
    expect(() => parseCatalogueEntry(JSON.stringify({ ...base, test: { runner: 'pytest' } }), '/c/demo.yaml')).toThrow(/test\.runner.*needs a JavaScript test runner/);
    expect(() => parseCatalogueEntry(JSON.stringify({ ...base, image: { setup: ['true'] } }), '/c/demo.yaml')).toThrow(/image\.setup.*needs an `npm: ci` setup step/);
  });
});

describe('npm catalogue entries: materialising (real tar, real git)', () => {
  it('commits the package as published, then its trimmed package.json and pinned lockfile, at the same sha on every run', async () => {
    const dirs = folders();
    const entry = npmEntry(packTarball(dirs.npmCache, WITH_TESTS));
    const built = await materialiseEntry(entry, dirs);
    expect(git(built.path, 'log', '--format=%s')).toBe("ssr catalogue: package.json and package-lock.json pin the tests' dependencies\nssr-demo 1.0.0 as the npm registry publishes it");
    expect(JSON.parse(readFileSync(join(built.path, 'package.json'), 'utf8')).devDependencies).toEqual({ tape: '^5.0.0' });
    expect(JSON.parse(git(built.path, 'show', 'HEAD~1:package.json')).devDependencies).toEqual(MANIFEST.devDependencies);
    expect(JSON.parse(readFileSync(join(built.path, 'package-lock.json'), 'utf8'))).toEqual(LOCK);
    expect(git(built.path, 'status', '--porcelain')).toBe('');
    expect(built.note).toMatch(/ssr-demo@1\.0\.0 from npm \(cached tarball\); lockfile /);

    const elsewhere = folders();
    mkdirSync(elsewhere.npmCache);
    copyFileSync(join(dirs.npmCache, npmTarballName('ssr-demo', '1.0.0')), join(elsewhere.npmCache, npmTarballName('ssr-demo', '1.0.0')));
    expect((await materialiseEntry(entry, elsewhere)).commit).toBe(built.commit);
    const repoEntry = repoEntrySchema.parse(catalogueRepoEntry(entry, built));
    expect(repoEntry.test.runner).toBe('tape');
    expect(repoEntry.image.setup).toEqual([{ npm: 'ci --ignore-scripts' }]);
  });

  it('sets a devDependency to the entry\'s own range and adds the entry\'s files in ssr\'s commit', async () => {
    const dirs = folders();
    const entry = npmEntry(packTarball(dirs.npmCache, WITH_TESTS), { dev_dependencies: ['tape@5.9.0', 'mocha@10.8.2'] }, { files: { '.mocharc.json': '{ "spec": ["tests/**/*.js"] }\n' } });
    const built = await materialiseEntry(entry, dirs);
    expect(JSON.parse(readFileSync(join(built.path, 'package.json'), 'utf8')).devDependencies).toEqual({ tape: '5.9.0', mocha: '10.8.2' });
    expect(git(built.path, 'show', 'HEAD:.mocharc.json')).toBe('{ "spec": ["tests/**/*.js"] }');
    expect(git(built.path, 'log', '-1', '--format=%s')).toMatch(/; adds \.mocharc\.json$/);
    const clash = npmEntry(entry.source.type === 'npm' ? entry.source.integrity : '', {}, { files: { 'index.js': 'x' } });
    await expect(materialiseEntry(clash, { ...dirs, dest: join(dirs.dest, '..', 'clash') })).rejects.toThrow(/files\.index\.js is already in the source/);
  });

  it('refuses a tarball that ships no tests, saying how to see what it ships', async () => {
    const dirs = folders();
    const entry = npmEntry(packTarball(dirs.npmCache, { 'index.js': 'module.exports = 1;\n', 'README.md': '# demo\n' }));
    await expect(materialiseEntry(entry, dirs)).rejects.toThrow(/ssr-demo@1\.0\.0's tarball ships no test files .*`npm pack ssr-demo@1\.0\.0 --dry-run`/);
    expect(existsSync(join(dirs.dest, 'demo'))).toBe(false);
  });

  it('refuses a tarball whose integrity is not the pinned one, and drops it from the cache', async () => {
    const dirs = folders();
    packTarball(dirs.npmCache, WITH_TESTS);
    const entry = npmEntry(`sha512-${'B'.repeat(86)}==`);
    await expect(materialiseEntry(entry, dirs)).rejects.toThrow(/ssr-demo@1\.0\.0: the tarball's integrity is sha512-.*, the catalogue pins sha512-BBBB/);
    expect(existsSync(join(dirs.npmCache, npmTarballName('ssr-demo', '1.0.0')))).toBe(false);
  });

  it('names the devDependencies the package declares when the entry keeps one it does not', async () => {
    const dirs = folders();
    const entry = npmEntry(packTarball(dirs.npmCache, WITH_TESTS), { dev_dependencies: ['tape', 'mocha'] });
    await expect(materialiseEntry(entry, dirs)).rejects.toThrow(/source\.dev_dependencies names mocha, which ssr-demo@1\.0\.0 does not declare \(its devDependencies: tape, eslint\); give a version/);
  });

  it('says a package the registry does not serve cannot be fetched, with the fix (real npm, a registry that refuses)', async () => {
    const saved = { registry: process.env.npm_config_registry, retries: process.env.npm_config_fetch_retries };
    process.env.npm_config_registry = 'http://127.0.0.1:9/';
    process.env.npm_config_fetch_retries = '0';
    try {
      await expect(fetchNpmPackage(mkdtempSync(join(tmpdir(), 'ssr-npm-')), 'ssr-no-such-package', '1.0.0', `sha512-${'A'.repeat(86)}==`)).rejects.toThrow(
        /ssr-no-such-package@1\.0\.0 cannot be fetched from the npm registry \(.*\): check the name and version with `npm view ssr-no-such-package versions`/,
      );
    } finally {
      for (const [key, value] of [['npm_config_registry', saved.registry], ['npm_config_fetch_retries', saved.retries]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});
