import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The layer order of the house, written once, bottom first: a folder may import its own layer and
 * the ones before it, never one after it. Every folder of src/ (and consistency-checks/, which the
 * product build compiles) must be listed, so a new folder has to be placed before it lands.
 */
const LAYERS = [
  'src/util', // errors, hashing, progress sinks, host git: no ssr knowledge
  'src/code', // diffs and source parsing
  'src/artifact', // the bug artifact (five files) and its id
  'src/mutation', // mutation operators on parsed source
  'src/reward', // reward formulas, pure
  'src/config', // repos.yaml schema and repo resolution
  'src/sandbox', // Docker, bubblewrap and k8s sandboxes, images
  'src/workspace', // git operations inside a sandbox
  'src/harness', // running a repo's tests and parsing their report
  'src/coverage', // per-test-file line coverage of a clean run: the tracer and its map (validator and procedural Injector)
  'consistency-checks', // the validator's checks, one file each
  'src/validator', // validates a bug artifact by running the checks
  'src/tools', // the agent's tools
  'src/policy', // model endpoints, procedural and scripted policies
  'src/agent', // the agent loop and its trajectory
  'src/roles', // Injector and Solver episodes, grading
  'src/corpus', // the run dir: stored bugs, episodes, exports
  'src/rl', // training samples and advantages
  'src/training', // the trainer service client and sampler sync
  'src/catalogue', // fetching catalogue repos
  'src/evaluation', // ssr eval: a policy's solve rate on a held-out set
  'src/selfplay', // the self-play loop (held-out tracking and anchoring use evaluation's loaders and runner)
  'src/mining', // ssr mine: real bugs from a repo's fix commits
  'src/realism', // ssr realism: synthetic and mined bugs measured side by side
  'src/onboarding', // ssr init: detecting a repo and writing its entry
  'src/report', // rendering a run dir
  'src/cli', // commands: parse flags, call the layers below
] as const;

/**
 * Imports that still point up: `[from, to, why]`, each a path prefix (a file or a folder). An
 * upward import is allowed only when an entry matches it, and every entry must still match one,
 * so the list can only shrink. Do not add to it: move what the two sides share down instead.
 */
const ALLOWED_UPWARD: readonly (readonly [string, string, string])[] = [
  ['consistency-checks/', 'src/validator/',
    'the checks use the validator’s check types and helpers while the validator runs the checks: a circle until check-types/check-helpers (and the script runners they call) move into consistency-checks/ or a layer below both'],
  ['src/selfplay/', 'src/report/step-log/step-log.ts',
    'the per-step log (--log-to) written while the loop runs; only selfplay/ and cli/ use it, but its scalars come from report/stats.ts and report/trainer-metrics.ts, which the report also renders from, so it can move into selfplay/ only with those two moved below both'],
  ['src/selfplay/bench/procedural-bench.ts', 'src/cli/common-options.ts',
    'a bench entry point (a bin’s main) that loads repos.yaml as the CLI does: it belongs under src/cli/bench'],
  ['src/harness/bench/js-hardening-bench.ts', 'src/catalogue/',
    'a bench entry point that materialises catalogue repos to run the JS guard on them: a bin’s main, it belongs with the other benches above the catalogue'],
  ['src/selfplay/ablations/ablation-entry.ts', 'src/cli/main.ts',
    'the ablation entry point drives the CLI’s main itself: it belongs under src/cli/bench'],
];

const allowed = (edge: string): boolean => {
  const [from, to] = edge.split(' → ') as [string, string];
  return ALLOWED_UPWARD.some(([fromPrefix, toPrefix]) => from.startsWith(fromPrefix) && to.startsWith(toPrefix));
};

// Static imports and re-exports (`import … from`, `export … from`, side-effect `import '…'`) and
// dynamic `import('…')`, with either quote; comments are not stripped, so a commented-out import
// counts too (harmless, and it keeps the scan simple enough to trust).
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

/** Module specifiers of a TypeScript source. */
function importSpecifiers(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((match) => match[1]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|js)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The layer (index in LAYERS) a repo-relative path belongs to, or -1 outside every layer. */
function layerOf(path: string): number {
  return LAYERS.findIndex((layer) => path === layer || path.startsWith(`${layer}/`));
}

/** Repo-relative targets of the relative imports of `file`. */
function relativeImports(file: string): string[] {
  return importSpecifiers(readFileSync(file, 'utf8'))
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(ROOT, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

/** Every import from a layer to a later one, as `file → target`. */
function upwardImports(): string[] {
  return LAYERS.flatMap((layer, index) =>
    sourceFiles(join(ROOT, layer)).flatMap((file) =>
      relativeImports(file)
        .filter((target) => layerOf(target) > index)
        .map((target) => `${relative(ROOT, file)} → ${target}`),
    ),
  );
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

  it('places every folder of src/ in the layer order, and lists no folder that is gone', () => {
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => `src/${entry.name}`);
    expect(folders.filter((folder) => layerOf(folder) < 0)).toEqual([]);
    expect(LAYERS.filter((layer) => !existsSync(join(ROOT, layer)))).toEqual([]);
  });

  it('has no import from a layer to a later one beyond the allow-list, and no stale allow-list entry', () => {
    const upward = upwardImports();
    expect(upward.filter((edge) => !allowed(edge))).toEqual([]);
    const stale = ALLOWED_UPWARD.filter(([from, to]) => !upward.some((edge) => edge.startsWith(from) && edge.split(' → ')[1]!.startsWith(to)));
    expect(stale.map(([from, to]) => `${from} → ${to}`)).toEqual([]);
  });

  it('keeps test code out of the product and the scripts: src/ and scripts/ never import test/', () => {
    const intoTest = ['src', 'consistency-checks', 'scripts'].flatMap((dir) =>
      sourceFiles(join(ROOT, dir)).flatMap((file) => relativeImports(file).filter((target) => target.startsWith('test/')).map((target) => `${relative(ROOT, file)} → ${target}`)),
    );
    expect(intoTest).toEqual([]);
  });
});
