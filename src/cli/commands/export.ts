import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { writeFileAtomic } from '../../corpus/atomic-write.js';
import { exportArtifactDirs } from '../../corpus/export-artifact-dirs.js';
import { formatSweBenchJsonl } from '../../corpus/export-swe-bench.js';
import { readCorpus } from '../../corpus/read-corpus.js';

interface ExportOptions {
  corpus: string;
  format: 'swe-bench' | 'ssr';
  out: string;
  json?: boolean;
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('export the valid bugs of a run dir as SWE-bench-style JSONL or as plain artifact directories')
    .requiredOption('--corpus <dir>', 'run dir written by ssr selfplay or ssr corpus (--out)')
    .addOption(
      new Option('--format <format>', 'swe-bench: one JSON instance per line in --out (a file); ssr: one artifact directory per bug under --out (a directory)')
        .choices(['swe-bench', 'ssr'])
        .default('swe-bench'),
    )
    .requiredOption('--out <path>', 'output file (swe-bench) or directory (ssr)')
    .option('--json', 'print a JSON summary on stdout')
    .action(async (options: ExportOptions) => {
      const out = resolve(options.out);
      const corpus = await readCorpus(resolve(options.corpus));
      if (options.format === 'swe-bench') await writeFileAtomic(out, formatSweBenchJsonl(corpus.valid));
      else await exportArtifactDirs(corpus.valid, out);
      const summary = { format: options.format, out, exported: corpus.valid.length, invalid: corpus.invalid, incomplete: corpus.incomplete.length };
      if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      else {
        const skipped = `${corpus.invalid} invalid${corpus.incomplete.length > 0 ? `, ${corpus.incomplete.length} incomplete` : ''} left out`;
        process.stdout.write(`exported ${corpus.valid.length} valid bugs (${skipped}) to ${out}\n`);
      }
    });
}
