import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

/** The layers below the report and the CLI: they report through util/progress and never render. */
const LOWER_LAYERS = ['sandbox', 'validator', 'workspace', 'harness'];
const UPPER_LAYERS = ['report', 'cli'];

// Static imports and re-exports (`import … from`, `export … from`, side-effect `import '…'`) and
// dynamic `import('…')`, with either quote; comments are not stripped, so a commented-out import
// counts too (harmless, and it keeps the scan simple enough to trust).
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

/** Module specifiers of a TypeScript source. */
function importSpecifiers(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((match) => match[1]!);
}

/** The upper-layer paths (relative to src/) that `file` imports; bare package specifiers are skipped. */
function upwardImports(file: string): string[] {
  return importSpecifiers(readFileSync(file, 'utf8'))
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(SRC, resolve(dirname(file), specifier)))
    .filter((target) => UPPER_LAYERS.some((layer) => target === layer || target.startsWith(`${layer}/`)));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|js)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('arrows point down', () => {
  it.each([
    ["import type { ProgressSink } from '../../report/progress.js';", ['../../report/progress.js']],
    ['import { positiveInt } from "../cli/common-options.js";', ['../cli/common-options.js']],
    ["export { render } from './report/render.js';", ['./report/render.js']],
    ["const cli = await import('../cli/main.js');", ['../cli/main.js']],
    ["import '../report/side-effect.js';", ['../report/side-effect.js']],
    ["import Docker from 'dockerode';\nimport {\n  a,\n  b,\n} from './x.js';", ['dockerode', './x.js']],
  ])('finds the imports of %j', (source, expected) => {
    expect(importSpecifiers(source)).toEqual(expected);
  });

  it.each(LOWER_LAYERS)('src/%s imports nothing from src/report or src/cli', (layer) => {
    const files = sourceFiles(join(SRC, layer));
    expect(files.length).toBeGreaterThan(0);
    const upward = files.flatMap((file) => upwardImports(file).map((target) => `${relative(ROOT, file)} → src/${target}`));
    expect(upward).toEqual([]);
  });
});
