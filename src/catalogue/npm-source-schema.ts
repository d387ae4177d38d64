import { z } from 'zod';

/** npm's rules for a package name (lower case, URL-safe, optionally `@scope/`), as `npm pack` takes it. */
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const NPM_DEPENDENCY = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:@[0-9A-Za-z.^~<>=| *-]+)?$/;

/** `name` and the range of a `name@range` (undefined without one); a scope's leading `@` is part of the name. */
export function splitDependency(spec: string): { name: string; range: string | undefined } {
  const at = spec.indexOf('@', 1);
  return at === -1 ? { name: spec, range: undefined } : { name: spec.slice(0, at), range: spec.slice(at + 1) };
}

/**
 * A package as the npm registry publishes it, for packages whose tarball ships their test suite:
 * `npm pack <package>@<version>` fetches it (checked against `integrity`), its files become the
 * repo's top level, and a lockfile pinned in the catalogue (`npm-locks/<id>.package-lock.json`,
 * generated once with `npm install --package-lock-only` and committed) fixes every dependency,
 * so an `npm: ci` image step installs the same tree on any machine.
 */
export const npmSourceSchema = z
  .object({
    type: z.literal('npm'),
    package: z.string().max(214).regex(NPM_NAME, 'expected an npm package name (lower case; letters, digits, - . _ ~; optionally @scope/)'),
    version: z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'expected an exact version (e.g. 6.14.0), not a range or a tag'),
    integrity: z.string().regex(/^sha512-[A-Za-z0-9+/]{86}==$/, 'expected the tarball\'s sha512 integrity (`npm view <package>@<version> dist.integrity`)'),
    /**
     * The devDependencies the tests need (the rest are linters, bundlers and release tools):
     * package.json keeps only these, at the ranges it gives them, or at `name@range` when the entry
     * gives one (e.g. a newer mocha whose reporter ssr's script needs). Default: all of them.
     */
    dev_dependencies: z.array(z.string().regex(NPM_DEPENDENCY, 'expected an npm package name, optionally with @<version range>')).optional(),
  })
  .strict();
export type NpmSource = z.infer<typeof npmSourceSchema>;
