import { posix } from 'node:path';
import { pythonImports, type PyImport } from './python-imports.js';

/**
 * Which repo files each Python file of the repo depends on through its imports, statically.
 *
 * Modules are found by name from every directory, not from a guessed `sys.path`: `a.b` names
 * `a/b.py` or `a/b/__init__.py` at the repo root, under `src/`, or anywhere else, so a name matches
 * more files rather than fewer. A name imported from a package (`from pkg import X`) depends on the
 * submodule `pkg/X.py` when there is one, else on the module the package's `__init__.py` takes
 * `X` from (`from .money import X`), else on `__init__.py` itself: a package that re-exports
 * every submodule does not make every test depend on every module. What this cannot see (imports
 * by string, plugins, data files, the import-time side effects of a package's `__init__.py`) is
 * what the validator's audit of the selection is for.
 */
export class ImportGraph {
  /** Dotted module name → files that may be that module. */
  private readonly byName = new Map<string, string[]>();
  private readonly imports = new Map<string, PyImport[]>();
  private readonly deps = new Map<string, Set<string>>();

  constructor(sources: ReadonlyMap<string, string>) {
    for (const [path, source] of sources) {
      if (!path.endsWith('.py')) continue;
      this.imports.set(path, pythonImports(source));
      for (const name of moduleNames(path)) this.byName.set(name, [...(this.byName.get(name) ?? []), path]);
    }
    for (const path of this.imports.keys()) this.deps.set(path, this.resolve(path));
  }

  /** The files `path` imports directly. */
  dependencies(path: string): ReadonlySet<string> {
    return this.deps.get(path) ?? new Set();
  }

  /** The changed files and every Python file that imports one of them, directly or not. */
  affectedBy(changed: readonly string[]): Set<string> {
    const dependents = new Map<string, string[]>();
    for (const [path, deps] of this.deps) for (const dep of deps) dependents.set(dep, [...(dependents.get(dep) ?? []), path]);
    const affected = new Set(changed);
    const queue = [...changed];
    while (queue.length > 0) {
      for (const next of dependents.get(queue.pop()!) ?? []) {
        if (!affected.has(next)) {
          affected.add(next);
          queue.push(next);
        }
      }
    }
    return affected;
  }

  private resolve(path: string): Set<string> {
    const found = new Set<string>();
    for (const imp of this.imports.get(path) ?? []) {
      const module = absoluteModule(path, imp.module);
      if (module === undefined) continue;
      const targets = this.byName.get(module) ?? [];
      if (imp.names === null || imp.names === '*' || targets.length === 0) {
        for (const target of targets) found.add(target);
        continue;
      }
      for (const name of imp.names) for (const target of this.nameIn(module, name, new Set())) found.add(target);
    }
    found.delete(path);
    return found;
  }

  /** The files `from <module> import <name>` depends on: a submodule, the module a package re-exports it from, or the module itself. */
  private nameIn(module: string, name: string, seen: Set<string>): string[] {
    const submodule = this.byName.get(`${module}.${name}`);
    if (submodule) return submodule;
    const targets = this.byName.get(module) ?? [];
    const packages = targets.filter((target) => posix.basename(target) === '__init__.py');
    if (packages.length === 0 || seen.has(module)) return targets;
    seen.add(module);
    const out: string[] = targets.filter((target) => posix.basename(target) !== '__init__.py');
    for (const init of packages) {
      const from = (this.imports.get(init) ?? []).find((imp) => Array.isArray(imp.names) && imp.names.includes(name));
      const source = from ? absoluteModule(init, from.module) : undefined;
      if (source === undefined) out.push(init);
      else out.push(...this.nameIn(source, name, seen));
    }
    return out;
  }
}

/** Every dotted name a file may be imported by: `src/pkg/mod.py` → `mod`, `pkg.mod`, `src.pkg.mod`. */
function moduleNames(path: string): string[] {
  const parts = path.slice(0, -'.py'.length).split('/');
  if (parts.at(-1) === '__init__') parts.pop();
  const names: string[] = [];
  for (let start = parts.length - 1; start >= 0; start -= 1) names.push(parts.slice(start).join('.'));
  return names.filter((name) => name !== '');
}

/** A relative module name made absolute from the importing file's package; undefined when it climbs out of the repo. */
function absoluteModule(importer: string, module: string): string | undefined {
  const dots = /^\.*/.exec(module)![0].length;
  if (dots === 0) return module;
  const pkg = posix.dirname(importer).split('/').filter((part) => part !== '.' && part !== '');
  if (dots - 1 > pkg.length) return undefined;
  const base = pkg.slice(0, pkg.length - (dots - 1));
  const rest = module.slice(dots);
  return [...base, ...(rest === '' ? [] : [rest])].join('.');
}
