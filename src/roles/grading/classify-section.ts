import { isCodePath, isTestPath } from '../../code/classify-path.js';
import type { FileDiff } from '../../code/diff-types.js';
import { isDoctestHost } from '../../code/doctest-diff-rules.js';
import type { DropReason } from './drop-reason.js';
import { isInstalledPackagePath, isJsRunnerConfig, isJsRunnerDir } from './js-runner-files.js';
import { shadowsModule } from './shadowed-modules.js';

const SYMLINK_MODE = '120000';
/** Files the runner reads as configuration (pytest's ini lookup, coverage, nox/tox). */
const RUNNER_CONFIG = new Set(['pytest.ini', '.pytest.ini', 'tox.ini', 'setup.cfg', 'pyproject.toml', 'conftest.py', '.coveragerc', 'noxfile.py', '.pdbrc']);
const STARTUP_HOOKS = new Set(['sitecustomize.py', 'usercustomize.py']);
/** Folders that are sys.path roots by convention (a src layout), besides the repo root. */
const SOURCE_ROOTS = new Set(['src', 'lib']);

function segments(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.');
}

function escapesRepo(path: string): boolean {
  const parts = segments(path);
  return path.startsWith('/') || path.startsWith('~') || parts.includes('..') || parts[0] === '.git';
}

/** The top-level module a path defines: `json.py` → json, `json/x.py` → json, `src/json.py` → json. */
function topModule(path: string): string | undefined {
  const parts = segments(path);
  const rooted = parts.length > 1 && SOURCE_ROOTS.has(parts[0]!) ? parts.slice(1) : parts;
  const first = rooted[0];
  if (first === undefined) return undefined;
  if (rooted.length > 1) return first;
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.[^/]*)?\.(?:py|pyc|pyd|so)$/.exec(first);
  return match?.[1];
}

/** Why one path of a section cannot count, or null when it is a code file the fix may change. */
function pathReason(path: string, added: boolean, listed: ReadonlySet<string>, runnerNamed: ReadonlySet<string>): DropReason | null {
  if (escapesRepo(path)) return 'outside-repo';
  // A listed code file hosts doctests: its code counts, its example hunks are dropped (dropExampleHunks).
  if (listed.has(path) && !isDoctestHost(path)) return 'oracle-test-file';
  const parts = segments(path);
  const name = parts.at(-1) ?? '';
  if (STARTUP_HOOKS.has(name) || name.endsWith('.pth')) return 'startup-hook';
  if (RUNNER_CONFIG.has(name) || (name === '__init__.py' && isTestPath(path)) || isJsRunnerConfig(name) || runnerNamed.has(parts.join('/'))) return 'runner-config';
  if (isTestPath(path) || isJsRunnerDir(parts)) return 'test-file';
  // Installed packages are never the repo's own: editing one replaces the runner or a library.
  if (isInstalledPackagePath(parts)) return 'shadows-module';
  const module = topModule(path);
  // An existing module of the original tree is the repo's own; only a new one can newly shadow.
  if (added && module !== undefined && shadowsModule(module)) return 'shadows-module';
  if (!isCodePath(path)) return 'non-code';
  return null;
}

/**
 * Why a file section of a Solver's patch must be dropped before grading, or null to keep it.
 * Both sides count: renaming a test file into code, or code onto a runner config, is dropped.
 * `runnerNamed`: the files the original tree's runner configs name as setup files, reporters and
 * the like (runner-named-files.ts), whatever their names; they count as runner config.
 */
export function classifySection(file: FileDiff, listed: ReadonlySet<string>, runnerNamed: ReadonlySet<string> = new Set()): DropReason | null {
  if (file.oldMode === SYMLINK_MODE || file.newMode === SYMLINK_MODE) {
    const paths = [file.oldPath, file.newPath].filter((path): path is string => path !== null);
    return paths.some(escapesRepo) ? 'outside-repo' : 'symlink';
  }
  const added = file.kind === 'added' || file.kind === 'renamed';
  for (const path of [file.oldPath, file.newPath]) {
    if (path === null) continue;
    const reason = pathReason(path, added && path === file.newPath, listed, runnerNamed);
    if (reason !== null) return reason;
  }
  return null;
}
