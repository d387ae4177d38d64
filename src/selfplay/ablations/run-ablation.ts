import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readJsonl } from '../../corpus/jsonl-file.js';
import { runPaths } from '../../corpus/run-layout.js';
import { EngineError } from '../../util/engine-error.js';
import { stepMetricsSchema } from '../step-metrics.js';
import { ABLATIONS } from './ablation-variants.js';
import { formatComparison, type VariantRun } from './comparison-table.js';

/** Runs `ssr <args>` and returns its exit code (the CLI's `main`, injected so this module does not import the CLI). */
export type RunCli = (args: string[]) => Promise<number>;

/** Remove `--name <value>` (or `--name=value`) from argv; returns the value, if any. */
export function takeOption(argv: string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name && i + 1 < argv.length) {
      value = argv[i + 1];
      argv.splice(i, 2);
      i--;
    } else if (argv[i]!.startsWith(`${name}=`)) {
      value = argv[i]!.slice(name.length + 1);
      argv.splice(i, 1);
      i--;
    }
  }
  return value;
}

/** Every variant run dir under an ablation root (subdirs with a metrics.jsonl), sorted by name. */
export async function readVariantRuns(root: string): Promise<VariantRun[]> {
  const names = existsSync(root) ? (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort() : [];
  const runs: VariantRun[] = [];
  for (const name of names) {
    const path = runPaths(join(root, name)).metrics;
    if (existsSync(path)) runs.push({ name, metrics: (await readJsonl(path, stepMetricsSchema)).records });
  }
  return runs;
}

/**
 * Run one ablation: each of its variants as `ssr selfplay <user flags> --out <root>/<variant>
 * <variant flags>` (resumable like any run), then print one table comparing every variant run
 * under the root — those of other ablations written there too, so running several ablation
 * scripts into one --out builds up one comparison.
 * @returns the exit code: the first non-zero one of a variant, else 0.
 */
export async function runAblation(name: string, argv: readonly string[], cli: RunCli, stdout: NodeJS.WritableStream = process.stdout): Promise<number> {
  const make = ABLATIONS[name];
  if (!make) throw new EngineError('usage', `unknown ablation ${JSON.stringify(name)} (known: ${Object.keys(ABLATIONS).join(', ')})`);
  const args = [...argv];
  const out = takeOption(args, '--out');
  if (out === undefined) throw new EngineError('usage', `ablate-${name}: give --out <dir> (each variant writes <dir>/<variant>/)`);
  const root = resolve(out);
  const corpus = takeOption(args, '--corpus');
  for (const variant of make({ root, corpus: corpus === undefined ? undefined : resolve(corpus) })) {
    process.stderr.write(`ablate-${name}: variant ${variant.name} → ${join(root, variant.name)}\n`);
    const code = await cli(['selfplay', ...args, '--out', join(root, variant.name), ...variant.flags]);
    if (code !== 0) {
      process.stderr.write(`ablate-${name}: variant ${variant.name} exited ${code}; stopping\n`);
      return code;
    }
  }
  stdout.write(formatComparison(await readVariantRuns(root)));
  return 0;
}
