import type { Command } from 'commander';
import { positiveInt } from '../common-options.js';
import { EngineError } from '../../util/engine-error.js';
import { openInBrowser } from '../../report/open-in-browser.js';
import { formatTextSummary } from '../../report/text-summary.js';
import { writeCompareReport, writeRunReport } from '../../report/write-report.js';

interface ReportOptions {
  out?: string;
  open?: boolean;
  compare?: boolean;
  bugs: number;
  quiet?: boolean;
}

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('write a self-contained HTML report (plots, latest bugs with their diffs) of a self-play run dir, or overlay several runs with --compare')
    .argument('<run-dirs...>', 'run dir(s) written by ssr selfplay or ssr corpus (--out); one, or two or more with --compare')
    .option('--out <file>', 'HTML file to write (default: <run-dir>/report.html; with --compare: ./compare.html)')
    .option('--compare', 'overlay the runs (one colour per run) for ablations')
    .option('--bugs <n>', 'latest bugs to list in the table', positiveInt('--bugs'), 50)
    .option('--open', 'open the report in the default browser')
    .option('--quiet', 'do not print the text summary')
    .action(async (runDirs: string[], options: ReportOptions) => {
      let out: string;
      if (options.compare) {
        const written = await writeCompareReport(runDirs, { out: options.out });
        out = written.out;
        if (!options.quiet) for (const run of written.runs) process.stdout.write(formatTextSummary(run));
      } else {
        if (runDirs.length !== 1) throw new EngineError('usage', `ssr report takes one run dir (got ${runDirs.length}); add --compare to overlay several`);
        const written = await writeRunReport(runDirs[0]!, { out: options.out, bugLimit: options.bugs });
        out = written.out;
        if (!options.quiet) process.stdout.write(formatTextSummary(written.run));
      }
      process.stdout.write(`wrote ${out}\n`);
      if (options.open && !(await openInBrowser(out))) process.stdout.write(`could not start a browser here: open ${out} yourself\n`);
    });
}
