import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../util/engine-error.js';

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
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'src', 'harness', sub);
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new EngineError('internal', `cannot find src/harness/${sub}/ above the ssr module`);
    dir = parent;
  }
}

/** The default pytest `-rA` test script and its parser, as text. */
export function readDefaultTestFiles(): { testScript: string; testParser: string } {
  const dir = defaultsDir();
  return {
    testScript: readFileSync(join(dir, 'test_script.sh'), 'utf8'),
    testParser: readFileSync(join(dir, 'test_parser.py'), 'utf8'),
  };
}
