import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { formatRealism } from '../../realism/format-realism.js';
import { realismSummary } from '../../realism/realism-summary.js';
import { realismReportPage } from '../../report/realism-section.js';

interface RealismFlags {
  synthetic: string;
  real: string;
  syntheticEval?: string;
  realEval?: string;
  json?: boolean;
  html?: string;
}

export function registerRealism(program: Command): void {
  program
    .command('realism')
    .description(
      'synthetic and mined (real) bugs side by side, per repo and over all: files, hunks and lines bug_inject.diff changes, bug kind and diff shape, ' +
        'failing-test breadth (FAIL_TO_PASS tests and their test files), and a Solver\'s solve rate on each from ssr eval dirs. ' +
        'Reads only what is stored (runs nothing). Exit 0, 2 usage error',
    )
    .requiredOption('--synthetic <dir>', 'synthetic bugs: an ssr corpus or ssr selfplay --out dir')
    .requiredOption('--real <dir>', 'real bugs: an ssr mine --out dir')
    .option('--synthetic-eval <dir>', 'the --out of ssr eval --set <the synthetic dir>: solve rate on the synthetic bugs')
    .option('--real-eval <dir>', 'the --out of ssr eval --set <the real dir>: solve rate on the mined bugs')
    .option('--json', 'print the summary as one JSON line on stdout (docs/real-bugs.md, "Realism")')
    .option('--html <file>', 'also write the tables as an HTML page (the report\'s "Realism" section)')
    .action(async (options: RealismFlags) => {
      const summary = await realismSummary(options);
      if (options.html !== undefined) await writeFile(resolve(options.html), realismReportPage(summary));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(summary)}\n`);
        return;
      }
      for (const note of summary.notes) process.stderr.write(`ssr realism: note: ${note}\n`);
      process.stdout.write(formatRealism(summary));
    });
}
