import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EngineError } from '../util/engine-error.js';
import { hostGit } from '../util/host-git.js';
import type { CatalogueEntry } from './catalogue-entry-schema.js';
import { extractDeb, fetchDebianPackage } from './fetch-debian-package.js';
import { snapshotNpm, type NpmEntry } from './snapshot-npm.js';

export interface MaterialiseOptions {
  /** Folder holding one git repository per materialised entry (`<dest>/<id>`). */
  dest: string;
  /** Where downloaded .deb files are kept, so a second run needs no network. */
  debCache: string;
  /** Folder of local git mirrors (`<owner>+<name>`, `<owner>+<name>/repo` or `<owner>+<name>.git`) for `git` entries. */
  mirror?: string;
  /** Where fetched npm tarballs are kept (`npm` entries; default: `npm` beside debCache). */
  npmCache?: string;
  /** Folder of the pinned lockfiles of `npm` entries (the catalogue's `npm-locks/`). */
  npmLocks?: string;
}

/** One materialised entry: a local git repository at a deterministic commit. */
export interface Materialised {
  id: string;
  path: string;
  commit: string;
  /** How the source was obtained, for the progress line. */
  note: string;
}

const DIST_PACKAGES = 'usr/lib/python3/dist-packages';
// A fixed author and date make the snapshot commit's sha a function of the files alone: a second
// run (or another machine with the same archive) gives the same sha, so images and runs are reused.
const FIXED_GIT_ENV = {
  GIT_AUTHOR_NAME: 'ssr catalogue', GIT_AUTHOR_EMAIL: 'catalogue@ssr.invalid', GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'ssr catalogue', GIT_COMMITTER_EMAIL: 'catalogue@ssr.invalid', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

function pytestIni(options: Record<string, string>): string {
  const lines = Object.entries(options).map(([key, value]) => `${key} = ${value}`);
  return `# Written by scripts/catalogue-fetch so that ssr's default test command runs this suite.\n[pytest]\n${lines.join('\n')}\n`;
}

async function git(args: string[], cwd: string, what: string): Promise<string> {
  return hostGit(['-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', ...args], { cwd, env: FIXED_GIT_ENV, what, code: 'config-invalid' });
}

async function snapshotDebian(entry: CatalogueEntry & { source: { type: 'debian' } }, tree: string, options: MaterialiseOptions): Promise<string> {
  const { deb, downloaded } = await fetchDebianPackage(options.debCache, entry.source.package, entry.source.version);
  const unpacked = `${tree}.deb`;
  await extractDeb(deb, unpacked);
  const shipped = existsSync(join(unpacked, DIST_PACKAGES)) ? await readdir(join(unpacked, DIST_PACKAGES)) : [];
  for (const path of entry.source.paths) {
    if (!shipped.includes(path)) {
      throw new EngineError('config-invalid', `catalogue entry ${entry.id}: source.paths names "${path}", which ${entry.source.package} does not ship (it ships: ${shipped.join(', ') || 'nothing under dist-packages'})`);
    }
    await cp(join(unpacked, DIST_PACKAGES, path), join(tree, path), { recursive: true });
  }
  await rm(unpacked, { recursive: true, force: true });
  await git(['init', '-q', '-b', 'main'], tree, 'git init');
  return `${entry.source.package} ${entry.source.version} (${downloaded ? 'downloaded' : 'cached .deb'})`;
}

function mirrorOf(mirror: string | undefined, repo: string): string | undefined {
  if (mirror === undefined) return undefined;
  const name = repo.replace('/', '+');
  return [join(mirror, name, 'repo'), join(mirror, name), join(mirror, `${name}.git`)].find((path) => existsSync(path));
}

async function snapshotGit(entry: CatalogueEntry & { source: { type: 'git' } }, tree: string, options: MaterialiseOptions): Promise<string> {
  const from = mirrorOf(options.mirror, entry.source.repo) ?? entry.source.url;
  try {
    await git(['clone', '-q', '--no-checkout', from, tree], options.dest, `git clone ${from}`);
  } catch (error) {
    throw new EngineError('config-invalid', `catalogue entry ${entry.id}: cannot clone ${from} (${(error as Error).message.split('\n')[0]}): without network, pass --mirror <dir> holding a clone named ${entry.source.repo.replace('/', '+')}`);
  }
  await git(['checkout', '-q', '-B', 'main', entry.source.commit], tree, `git checkout ${entry.source.commit}`);
  await git(['remote', 'remove', 'origin'], tree, 'git remote remove');
  return `${entry.source.repo} at ${entry.source.commit.slice(0, 12)} with its history (from ${from})`;
}

/** The message of the commit of what ssr adds on top of the source. */
function commitMessage(entry: CatalogueEntry): string {
  if (entry.source.type === 'debian') return `${entry.source.package} ${entry.source.version} as Debian ships it`;
  const added = Object.keys(entry.files).length > 0 ? `; adds ${Object.keys(entry.files).join(', ')}` : '';
  if (entry.source.type === 'npm') return `ssr catalogue: package.json and package-lock.json pin the tests' dependencies${added}`;
  return `ssr catalogue: pytest.ini${added}`;
}

async function snapshot(entry: CatalogueEntry, tree: string, options: MaterialiseOptions): Promise<string> {
  switch (entry.source.type) {
    case 'debian':
      return snapshotDebian(entry as CatalogueEntry & { source: { type: 'debian' } }, tree, options);
    case 'git':
      return snapshotGit(entry as CatalogueEntry & { source: { type: 'git' } }, tree, options);
    case 'npm': {
      if (options.npmLocks === undefined) throw new EngineError('usage', `catalogue entry ${entry.id} is an npm package: materialising it needs the folder of pinned lockfiles (npmLocks)`);
      const npm = { npmCache: options.npmCache ?? join(options.debCache, '..', 'npm'), npmLocks: options.npmLocks };
      // The tarball unpacks into the empty tree, so the repository is made at the first commit.
      return snapshotNpm(entry as NpmEntry, tree, npm, async (message) => {
        await git(['init', '-q', '-b', 'main'], tree, 'git init');
        await git(['add', '-A'], tree, 'git add');
        await git(['commit', '-q', '-m', message], tree, 'git commit');
      });
    }
  }
}

/**
 * Build a catalogue entry into `<dest>/<id>`: the source's files (a Debian package's
 * dist-packages paths as one snapshot commit, an upstream clone with its history, or an npm
 * tarball as published plus a commit of its pinned lockfile), plus a pytest.ini commit when the
 * entry sets pytest options. Idempotent: the commit is deterministic,
 * and an existing repository at the same commit is kept as is.
 * @throws EngineError `config-invalid` naming the entry, what is missing and the fix.
 */
export async function materialiseEntry(entry: CatalogueEntry, options: MaterialiseOptions): Promise<Materialised> {
  await mkdir(options.dest, { recursive: true });
  const path = join(options.dest, entry.id);
  const tree = join(options.dest, `.${entry.id}.build-${process.pid}`);
  await rm(tree, { recursive: true, force: true });
  await rm(`${tree}.deb`, { recursive: true, force: true });
  try {
    await mkdir(tree);
    const note = await snapshot(entry, tree, options);
    if (Object.keys(entry.pytest).length > 0) await writeFile(join(tree, 'pytest.ini'), pytestIni(entry.pytest));
    for (const [path, text] of Object.entries(entry.files)) {
      if (existsSync(join(tree, path))) throw new EngineError('config-invalid', `catalogue entry ${entry.id}: files.${path} is already in the source; ssr adds files, it does not replace them`);
      await mkdir(dirname(join(tree, path)), { recursive: true });
      await writeFile(join(tree, path), text);
    }
    await git(['add', '-A'], tree, 'git add');
    const message = commitMessage(entry);
    if ((await git(['status', '--porcelain'], tree, 'git status')) !== '') await git(['commit', '-q', '-m', message], tree, 'git commit');
    const commit = await git(['rev-parse', 'HEAD'], tree, 'git rev-parse');
    if (existsSync(path) && (await git(['rev-parse', 'HEAD'], path, 'git rev-parse').catch(() => '')) === commit) {
      return { id: entry.id, path, commit, note: `${note}; already materialised` };
    }
    await rm(path, { recursive: true, force: true });
    await rename(tree, path);
    return { id: entry.id, path, commit, note };
  } finally {
    await rm(tree, { recursive: true, force: true });
    await rm(`${tree}.deb`, { recursive: true, force: true });
  }
}
