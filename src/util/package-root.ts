import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError } from './engine-error.js';

let cached: string | undefined;

/**
 * The root of the ssr package this module belongs to: the nearest directory above it with a
 * package.json that holds `wanted` (e.g. `prompts`). Plain files that ssr reads at runtime (prompts,
 * default test files, sandbox scripts) are not copied by the compiled build (dist/src/...), so
 * both the sources and dist find them by walking up from here.
 */
export function packagePath(...wanted: string[]): string {
  cached ??= findRoot();
  const path = join(cached, ...wanted);
  if (!existsSync(path)) throw new EngineError('internal', `cannot find ${wanted.join('/')} in the ssr package at ${cached}`);
  return path;
}

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new EngineError('internal', 'cannot find the ssr package root above its modules');
    dir = parent;
  }
}
