import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Specifiers a file loads at its own load: static imports and re-exports that are not type-only (never `import()`). */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'([^']+)'/gm)) {
    if (match[1] === undefined) specifiers.push(match[3]!);
  }
  // Side-effect imports: `import 'x';`.
  for (const match of source.matchAll(/^import\s+'([^']+)'/gm)) specifiers.push(match[1]!);
  return specifiers;
}

/** Every module (repo-relative .ts path, or a package name) that loading `entry` loads. */
function loadedBy(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [resolve(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const key = relative(ROOT, file);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('node:')) continue;
      if (!specifier.startsWith('.')) {
        seen.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
        continue;
      }
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      if (!existsSync(target)) throw new Error(`${key}: ${specifier} resolves to no .ts file`);
      queue.push(target);
    }
  }
  return seen;
}

describe('what a command loads before it needs it', () => {
  it('ssr validate --help (main and the flags) loads no validator, sandbox, schema or YAML code', () => {
    const loaded = [...loadedBy('src/cli/main.ts'), ...loadedBy('src/cli/commands/validate.ts')];
    const heavy = loaded.filter((module) => /^(?:zod|yaml|dockerode|p-queue|diff|tree-sitter.*)$|^src\/(?:validator|harness|coverage|artifact)\/|^src\/sandbox\/(?!engines\/engine-address)/.test(module));
    expect(heavy).toEqual([]);
  });

  it('a validation loads jsdiff, tree-sitter, dockerode and bubblewrap only when it calls them (doctest rules, import-graph selection, the first engine request, a bwrap sandbox)', () => {
    const loaded = [...loadedBy('src/cli/commands/validate-run.ts')];
    expect(loaded.filter((module) => ['diff', 'tree-sitter', 'tree-sitter-python', 'dockerode'].includes(module))).toEqual([]);
    // Nor bubblewrap's modules: they load for --sandbox bwrap (or auto with no engine) only.
    expect(loaded.filter((module) => module.startsWith(join('src', 'sandbox', 'bwrap')) && !module.endsWith('lazy-bwrap-provider.ts'))).toEqual([]);
    // The walk itself reaches the modules that load them lazily.
    expect(loaded).toEqual(expect.arrayContaining([join('src', 'code', 'apply-hunks.ts'), join('src', 'code', 'python', 'parse-python.ts'), join('src', 'sandbox', 'docker', 'docker-client.ts')]));
  });
});
