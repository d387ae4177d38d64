import type { MissingModule } from './missing-module.js';

// What Node, Jest and Vitest print when an import cannot be resolved, in the order tried:
// CommonJS `Error: Cannot find module 'x'` (Jest: `Cannot find module 'x' from 'src/a.js'`, ESM:
// `Cannot find module '/repo/b.js' imported from …`), ESM's `Cannot find package 'x' imported from`,
// Vite's `Failed to resolve import "x" from "src/a.ts"` and `Failed to load url x (resolved id: x)`.
const NOT_FOUND = [
  /Cannot find module '([^'\s]+)'/,
  /Cannot find package '([^'\s]+)' imported from/,
  /Failed to resolve import "([^"\s]+)"/,
  /Failed to load url (\S+) \(resolved id:/,
];

/** The npm package a bare specifier names: `lodash` of `lodash/fp`, `@scope/pkg` of `@scope/pkg/sub`. */
export function npmPackageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * The first module a JavaScript / TypeScript test log says cannot be found, as
 * {@link MissingModule} with `node: true`: a bare specifier is an npm package the image lacks
 * (`module` is the package, `debian` its Debian name `node-<name>`); a relative or absolute one is a
 * file of the repo itself (`own`: not built, or not there). The cause a gate refusal must name,
 * which the log's last line (a runner summary) hides. Undefined when the log names none.
 */
export function missingJsModuleIn(log: string): MissingModule | undefined {
  for (const pattern of NOT_FOUND) {
    const match = pattern.exec(log);
    if (!match) continue;
    const specifier = match[1]!;
    const own = /^(\.{1,2}\/|\/|[A-Za-z]:\\)/.test(specifier);
    const module = own ? specifier : npmPackageOf(specifier.replace(/^node:/, ''));
    const debian = `node-${module.replace(/^@/, '').replace(/\//g, '-').toLowerCase()}`;
    return { module, error: match[0], debian, pip: module, node: true, ...(own ? { own } : {}) };
  }
  return undefined;
}

/** The sentence a refusal adds for a JS module: the package and how to install it, or the repo's own file. */
export function missingJsModuleHint(missing: MissingModule): string {
  if (missing.own) {
    return (
      `; its log shows "${missing.error}", a file of the repo itself: the tests import ${missing.module}, which is not there: ` +
      'build it in the image (an image.setup step such as "npm run build") or fix the import'
    );
  }
  return (
    `; its log shows "${missing.error}": the image lacks the npm package ${missing.module}: list it in package.json's ` +
    `dependencies or devDependencies (and its lockfile) and install it with an image.setup step { npm: ci }, or image.packages: [${missing.debian}] (a Debian package)`
  );
}
