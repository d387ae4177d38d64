import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueEntrySchema, type CatalogueEntry } from '../../../src/catalogue/catalogue-entry-schema.js';
import { fetchDebianPackage } from '../../../src/catalogue/fetch-debian-package.js';
import { materialiseEntry } from '../../../src/catalogue/materialise-entry.js';
import { catalogueRepoEntry, writeCatalogueRepos } from '../../../src/catalogue/write-catalogue-repos.js';
import { parseReposYaml } from '../../../src/config/load-repos.js';

/** A real .deb (dpkg-deb --build) shaped like Debian's python3-* packages: code and tests in dist-packages. */
function buildDeb(cache: string): void {
  const root = mkdtempSync(join(tmpdir(), 'ssr-deb-'));
  const pkg = join(root, 'usr/lib/python3/dist-packages/demo');
  mkdirSync(join(pkg, 'tests'), { recursive: true });
  mkdirSync(join(root, 'DEBIAN'));
  writeFileSync(join(root, 'DEBIAN/control'), 'Package: python3-ssr-demo\nVersion: 1.0-1\nArchitecture: all\nMaintainer: ssr <ssr@localhost>\nDescription: demo\n');
  writeFileSync(join(pkg, '__init__.py'), 'def double(x):\n    return 2 * x\n');
  writeFileSync(join(pkg, 'tests', 'check_demo.py'), 'from demo import double\n\ndef test_double():\n    assert double(2) == 4\n');
  mkdirSync(cache, { recursive: true });
  execFileSync('dpkg-deb', ['--build', '--root-owner-group', root, join(cache, 'python3-ssr-demo_1.0-1_all.deb')], { stdio: 'ignore' });
}

const entry = (overrides: Partial<CatalogueEntry> = {}): CatalogueEntry =>
  catalogueEntrySchema.parse({
    id: 'demo',
    description: 'a demo package',
    source: { type: 'debian', package: 'python3-ssr-demo', version: '1.0-1', paths: ['demo'] },
    pytest: { python_files: 'check_*.py' },
    style: 'pytest',
    history: 'single-commit',
    measured: { passing: 1, failing: 0, clean_suite_s: 0.1, on: 'test' },
    ...overrides,
  });

describe('materialiseEntry (real dpkg-deb, real git)', () => {
  let cache: string;
  beforeAll(() => {
    cache = mkdtempSync(join(tmpdir(), 'ssr-debs-'));
    buildDeb(cache);
  });

  it('puts the package paths at the top of a one-commit repo with the pytest.ini, at the same sha on every run', async () => {
    const dest = mkdtempSync(join(tmpdir(), 'ssr-cat-'));
    const first = await materialiseEntry(entry(), { dest, debCache: cache });
    expect(first.path).toBe(join(dest, 'demo'));
    expect(readFileSync(join(first.path, 'demo', 'tests', 'check_demo.py'), 'utf8')).toContain('double(2) == 4');
    expect(readFileSync(join(first.path, 'pytest.ini'), 'utf8')).toContain('[pytest]\npython_files = check_*.py\n');
    expect(execFileSync('git', ['-C', first.path, 'rev-list', '--count', 'HEAD'], { encoding: 'utf8' }).trim()).toBe('1');
    expect(execFileSync('git', ['-C', first.path, 'status', '--porcelain'], { encoding: 'utf8' })).toBe('');

    const again = await materialiseEntry(entry(), { dest, debCache: cache });
    expect(again).toMatchObject({ commit: first.commit });
    expect(again.note).toMatch(/cached \.deb.*already materialised/);
    const elsewhere = await materialiseEntry(entry(), { dest: mkdtempSync(join(tmpdir(), 'ssr-cat-')), debCache: cache });
    expect(elsewhere.commit).toBe(first.commit);
    const changed = await materialiseEntry(entry({ pytest: { python_files: 'check*.py' } }), { dest, debCache: cache });
    expect(changed.commit).not.toBe(first.commit);
    expect(readdirSync(dest)).toEqual(['demo']); // no build folder left behind
  });

  it('names what the package ships when a path is not in it', async () => {
    const dest = mkdtempSync(join(tmpdir(), 'ssr-cat-'));
    const bad = entry({ source: { type: 'debian', package: 'python3-ssr-demo', version: '1.0-1', paths: ['demo', 'nope'] } });
    await expect(materialiseEntry(bad, { dest, debCache: cache })).rejects.toThrow(/source\.paths names "nope", which python3-ssr-demo does not ship \(it ships: demo\)/);
    expect(existsSync(join(dest, 'demo'))).toBe(false);
  });

  it('says a package apt cannot get is not available, with the fix (real apt-get, no network needed)', async () => {
    await expect(fetchDebianPackage(mkdtempSync(join(tmpdir(), 'ssr-debs-')), 'python3-ssr-no-such-package', '1.0-1')).rejects.toThrow(
      /python3-ssr-no-such-package=1\.0-1 is not available from this machine's apt sources \(E: .*\): run apt-get update, check the version with `apt-cache policy python3-ssr-no-such-package`/,
    );
  });

  it('writes a repos.yaml entry ssr loads (path + pinned commit), replacing by id and keeping the others', async () => {
    const dest = mkdtempSync(join(tmpdir(), 'ssr-cat-'));
    const built = await materialiseEntry(entry(), { dest, debCache: cache });
    const file = join(dest, 'repos.yaml');
    writeFileSync(file, 'repos:\n  - id: other\n    source: { path: /somewhere }\n  - id: demo\n    source: { path: /stale }\n');
    await writeCatalogueRepos(file, [catalogueRepoEntry(entry({ limits: { test_timeout_s: 300 } }), built)]);
    const repos = parseReposYaml(readFileSync(file, 'utf8')).repos;
    expect(repos.map((repo) => repo.id)).toEqual(['demo', 'other']);
    expect(repos[0]).toMatchObject({ source: { path: built.path, commit: built.commit }, limits: { test_timeout_s: 300, memory_mb: 2048 } });
  });
});

