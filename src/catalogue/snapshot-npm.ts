import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { isTestPath } from '../code/classify-path.js';
import { languageOfPath } from '../code/source-language.js';
import { runProcess } from '../sandbox/images/run-process.js';
import { EngineError } from '../util/engine-error.js';
import type { CatalogueEntry } from './catalogue-entry-schema.js';
import { fetchNpmPackage, unpackNpmTarball } from './fetch-npm-package.js';
import { splitDependency } from './npm-source-schema.js';

export type NpmEntry = CatalogueEntry & { source: { type: 'npm' } };

export interface NpmSnapshotOptions {
  /** Where fetched tarballs are kept, so a second run needs no network. */
  npmCache: string;
  /** Folder of the pinned lockfiles, `<id>.package-lock.json` (the catalogue's `npm-locks/`). */
  npmLocks: string;
}

async function filesUnder(root: string, dir = root): Promise<string[]> {
  const found: string[] = [];
  for (const item of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) found.push(...(await filesUnder(root, path)));
    else found.push(relative(root, path));
  }
  return found;
}

/** The JS / TS test files of a tree (test/, __tests__/, *.test.js, …): none means the tarball left the suite out. */
export async function jsTestFiles(tree: string): Promise<string[]> {
  return (await filesUnder(tree)).filter((file) => isTestPath(file) && languageOfPath(file) !== undefined && languageOfPath(file) !== 'python');
}

/** package.json with devDependencies cut down to the ones the tests need. */
function keepDevDependencies(entry: NpmEntry, manifest: Record<string, unknown>): Record<string, unknown> {
  const keep = entry.source.dev_dependencies;
  if (keep === undefined) return manifest;
  const declared = (manifest.devDependencies ?? {}) as Record<string, string>;
  const wanted = keep.map(splitDependency);
  const missing = wanted.filter(({ name, range }) => range === undefined && !(name in declared)).map(({ name }) => name);
  if (missing.length > 0) {
    throw new EngineError(
      'config-invalid',
      `catalogue entry ${entry.id}: source.dev_dependencies names ${missing.join(', ')}, which ${entry.source.package}@${entry.source.version} does not declare ` +
        `(its devDependencies: ${Object.keys(declared).join(', ') || 'none'}); give a version (name@range) to add one`,
    );
  }
  return { ...manifest, devDependencies: Object.fromEntries(wanted.map(({ name, range }) => [name, range ?? declared[name]!])) };
}

/**
 * Fill `tree` with the published package, its package.json cut to the tests' devDependencies and
 * the pinned lockfile (generated and saved to `npmLocks` the first time: commit it). Returns the
 * progress note. Commits the package as published first, so the repo's history shows what ssr changed.
 * @throws EngineError `config-invalid` when the tarball ships no tests, or npm cannot lock the tree.
 */
export async function snapshotNpm(entry: NpmEntry, tree: string, options: NpmSnapshotOptions, commit: (message: string) => Promise<void>): Promise<string> {
  const { package: pkg, version, integrity } = entry.source;
  const { tarball, downloaded } = await fetchNpmPackage(options.npmCache, pkg, version, integrity);
  await unpackNpmTarball(tarball, tree);
  if ((await jsTestFiles(tree)).length === 0) {
    throw new EngineError(
      'config-invalid',
      `catalogue entry ${entry.id}: ${pkg}@${version}'s tarball ships no test files (nothing under test/, tests/ or __tests__/, no *.test.js): ` +
        `its package.json "files" or .npmignore leave the suite out; pick a package whose tarball has it (\`npm pack ${pkg}@${version} --dry-run\` lists what it ships)`,
    );
  }
  await commit(`${pkg} ${version} as the npm registry publishes it`);
  const manifestFile = join(tree, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  if (entry.source.dev_dependencies !== undefined) await writeFile(manifestFile, `${JSON.stringify(keepDevDependencies(entry, manifest), null, 2)}\n`);
  const pinned = join(options.npmLocks, `${entry.id}.package-lock.json`);
  let lockNote = `lockfile ${pinned}`;
  if (existsSync(pinned)) {
    await copyFile(pinned, join(tree, 'package-lock.json'));
  } else {
    const result = await runProcess('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: tree,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    if (result.exitCode !== 0 || !existsSync(join(tree, 'package-lock.json'))) {
      throw new EngineError('config-invalid', `catalogue entry ${entry.id}: npm install --package-lock-only failed: ${result.tail.trim().split('\n').slice(-3).join(' ')}`);
    }
    await mkdir(dirname(pinned), { recursive: true });
    await copyFile(join(tree, 'package-lock.json'), pinned);
    lockNote = `generated lockfile saved to ${pinned}: commit it`;
  }
  return `${pkg}@${version} from npm (${downloaded ? 'downloaded' : 'cached tarball'}); ${lockNote}`;
}
