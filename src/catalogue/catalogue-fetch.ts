import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { ssrPath } from '../util/ssr-home.js';
import { loadCatalogue } from './load-catalogue.js';
import { materialiseEntry } from './materialise-entry.js';
import { catalogueRepoEntry, writeCatalogueRepos } from './write-catalogue-repos.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The default folder materialised entries go to (and their repos.yaml). */
export function defaultCatalogueDest(): string {
  return ssrPath('catalogue');
}

/**
 * Entry of scripts/catalogue-fetch: materialise catalogue entries into local git repositories and
 * a repos.yaml listing them. Every entry is tried; those that fail are named with the fix and the
 * exit code is 2.
 */
async function main(argv: string[]): Promise<void> {
  const options = new Command('catalogue-fetch')
    .argument('[ids...]', 'entries to materialise (default: all)')
    .option('--catalogue <dir>', 'catalogue folder', join(ROOT, 'catalogue'))
    .option('--dest <dir>', 'where the repositories and repos.yaml go', defaultCatalogueDest())
    .option('--mirror <dir>', 'local git mirrors for entries with upstream history (<owner>+<name>)')
    .parse(argv, { from: 'user' });
  const opts = options.opts<{ catalogue: string; dest: string; mirror?: string }>();
  const ids = options.args;
  const catalogue = loadCatalogue(resolve(opts.catalogue));
  const unknown = ids.filter((id) => !catalogue.some((entry) => entry.id === id));
  if (unknown.length > 0) throw new Error(`unknown catalogue id(s) ${unknown.join(', ')} (known: ${catalogue.map((e) => e.id).join(', ')})`);
  const dest = resolve(opts.dest);
  const written: Array<Record<string, unknown>> = [];
  let failed = 0;
  for (const entry of catalogue.filter((e) => ids.length === 0 || ids.includes(e.id))) {
    try {
      const built = await materialiseEntry(entry, { dest: join(dest, 'repos'), debCache: join(dest, 'debs'), npmCache: join(dest, 'npm'), npmLocks: join(resolve(opts.catalogue), 'npm-locks'), ...(opts.mirror ? { mirror: resolve(opts.mirror) } : {}) });
      written.push(catalogueRepoEntry(entry, built));
      process.stdout.write(`${entry.id}: ${built.path} at ${built.commit.slice(0, 12)} — ${built.note}\n`);
    } catch (error) {
      failed += 1;
      process.stderr.write(`catalogue-fetch: ${entry.id}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  if (written.length > 0) {
    await writeCatalogueRepos(join(dest, 'repos.yaml'), written);
    process.stdout.write(`repos file: ${join(dest, 'repos.yaml')} (use --repos with ssr commands)\n`);
  }
  if (failed > 0) process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`catalogue-fetch: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
