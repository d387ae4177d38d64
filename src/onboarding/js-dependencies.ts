import type { DependencyHint } from './dependency-hints.js';
import type { RepoFiles } from './repo-files.js';

const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json'] as const;
const OTHER_LOCKFILES = ['yarn.lock', 'pnpm-lock.yaml', 'bun.lockb'] as const;

/** How to make the lockfile `npm ci` needs; shared by init's refusal and the image build's. */
export const MAKE_LOCKFILE = 'run `npm install --package-lock-only` in the repo (it resolves package.json into package-lock.json without installing) and commit package-lock.json';

/** What a JS repo's lockfile says: the `npm: ci` step, or why there can be none. */
export type JsDependencies = { status: 'locked'; hints: DependencyHint[] } | { status: 'no-lockfile'; why: string };

/** The packages of a lockfile (v2/v3 `packages`; v1 `dependencies`) that run install scripts at `npm ci`. */
function installScriptPackages(lock: unknown): string[] {
  if (typeof lock !== 'object' || lock === null) return [];
  const packages = (lock as { packages?: Record<string, { hasInstallScript?: boolean }> }).packages ?? {};
  return Object.entries(packages)
    .filter(([path, entry]) => path !== '' && entry?.hasInstallScript === true)
    .map(([path]) => path.replace(/^.*node_modules\//, ''));
}

/**
 * A JS / TS repo's dependencies: with a package-lock.json (or npm-shrinkwrap.json), an `npm: ci`
 * setup step, and a note naming the packages whose install scripts run at `npm ci` (native builds
 * that may need Debian build packages); without one, the refusal and how to make it, since
 * `npm ci` installs exactly what a lockfile pins and a bare `npm install` would not be reproducible.
 */
export async function jsDependencies(files: RepoFiles): Promise<JsDependencies> {
  const lockfile = LOCKFILES.find((name) => files.paths.includes(name));
  if (lockfile === undefined) {
    const others = OTHER_LOCKFILES.filter((name) => files.paths.includes(name));
    const other = others.length > 0 ? ` (${others.join(', ')} is not read by npm ci)` : '';
    return { status: 'no-lockfile', why: `no package-lock.json or npm-shrinkwrap.json at HEAD${other}: ssr installs a JS repo's dependencies with \`npm ci\`, from a lockfile only; ${MAKE_LOCKFILE}` };
  }
  let lock: unknown;
  try {
    lock = JSON.parse((await files.read(lockfile)) ?? '');
  } catch {
    return { status: 'no-lockfile', why: `${lockfile} is not valid JSON: ${MAKE_LOCKFILE.replace('and commit', 'to rewrite it, and commit')}` };
  }
  const version = (lock as { lockfileVersion?: unknown }).lockfileVersion;
  const installed = Object.keys((lock as { packages?: object }).packages ?? (lock as { dependencies?: object }).dependencies ?? {}).filter((path) => path !== '').length;
  const hints: DependencyHint[] = [{ file: lockfile, detail: `lockfileVersion ${String(version ?? '?')}, ${installed} package(s)`, step: { npm: 'ci' } }];
  const scripted = installScriptPackages(lock);
  if (scripted.length > 0) {
    hints.push({
      file: lockfile,
      detail:
        `${scripted.length} package(s) run install scripts at npm ci (native builds?): ${scripted.slice(0, 5).join(', ')}${scripted.length > 5 ? ', …' : ''}; ` +
        'if one does not build, add its Debian build packages to image.packages (e.g. build-essential) or, when it is optional, use { npm: "ci --ignore-scripts" }',
    });
  }
  return { status: 'locked', hints };
}
