import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../util/package-root.js';

/**
 * Where the default test script and parser live: `src/harness/defaults/` under the package root.
 * They are plain .sh/.py files read at runtime; the compiled build (dist/src/harness/...) does not
 * copy them, so both the sources and dist find them by walking up to the package root.
 */
export function defaultsDir(): string {
  return harnessAssetDir('defaults');
}

/** `src/harness/<sub>/` under the package root: the harness's plain (non-TypeScript) files. */
export function harnessAssetDir(sub: string): string {
  return packagePath('src', 'harness', sub);
}

/** The default pytest `-rA` test script and its parser, as text. */
export function readDefaultTestFiles(): { testScript: string; testParser: string } {
  const dir = defaultsDir();
  return {
    testScript: readFileSync(join(dir, 'test_script.sh'), 'utf8'),
    testParser: readFileSync(join(dir, 'test_parser.py'), 'utf8'),
  };
}
