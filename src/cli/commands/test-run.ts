import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { repoTestFiles } from '../../harness/repo-test-files.js';
import { runTests } from '../../harness/run-tests.js';
import type { TestReport } from '../../harness/test-report.js';
import type { ProgressSink } from '../../util/progress.js';
import { createProvider, prepareTemplate } from '../../sandbox/sandbox-factory.js';
import { addDockerHostOption, sandboxBackend } from '../docker-host-options.js';
import { EngineError, errorMessage } from '../../util/engine-error.js';
import { addRepoOptions, addSandboxOption, resolveRepoOptions, type RepoOptions, type SandboxChoice } from '../common-options.js';
import { testTimeoutMsOf, testTimeoutOption } from '../test-timeout-option.js';

interface TestRunOptions extends RepoOptions {
  sandbox: SandboxChoice;
  /** --docker-host (repeatable). */
  dockerHost?: string[];
  script?: string;
  parser?: string;
  testTimeout?: number;
  json?: boolean;
}

async function readUserFile(flag: string, path: string): Promise<string> {
  try {
    return await readFile(resolve(path), 'utf8');
  } catch (error) {
    throw new EngineError('usage', `${flag} ${path}: cannot read the file: ${errorMessage(error)}`);
  }
}

const stderrProgress: ProgressSink = (event) => process.stderr.write(`[${event.stage}] ${event.message}\n`);

function summary(repoId: string, report: TestReport): string {
  const statuses = Object.values(report.statuses);
  const passed = statuses.filter((status) => status === 'passed').length;
  const lines = [
    `${repoId}: ${passed} passed, ${statuses.length - passed} failed (${statuses.length} tests)`,
    `script: exit ${report.exitCode ?? 'none (killed)'}, ${(report.durationMs / 1000).toFixed(1)} s${report.timedOut ? ', TIMED OUT' : ''}; log ${report.logBytes} bytes`,
  ];
  if (report.parserFailure) lines.push(`parser failed (${report.parserFailure.code}): ${report.parserFailure.message}`);
  return `${lines.join('\n')}\n`;
}

/** `ssr test-run`: run a test script and parser on the original repo in a fresh sandbox. */
export function registerTestRun(program: Command): void {
  const command = program
    .command('test-run')
    .description('run a test script + parser on the original repo in a fresh sandbox (default: the whole pytest suite)')
    .option('--script <file>', "test_script.sh to run (default: the whole suite with the repo's test.runner, pytest -rA unless set)")
    .option('--parser <file>', "test_parser.py to read the log (default: the parser of the repo's test.runner)")
    .addOption(testTimeoutOption('the script'))
    .option('--json', 'print the whole TestReport as JSON');
  addRepoOptions(command);
  addSandboxOption(command);
  addDockerHostOption(command);
  command.action(async (options: TestRunOptions) => {
    const repo = await resolveRepoOptions(options);
    const defaults = repoTestFiles(repo);
    const testScript = options.script ? await readUserFile('--script', options.script) : defaults.testScript;
    const testParser = options.parser ? await readUserFile('--parser', options.parser) : defaults.testParser;
    const backend = await sandboxBackend(options);
    const template = await prepareTemplate(repo, backend, stderrProgress);
    const sandbox = await createProvider(backend).acquire(template);
    let report: TestReport;
    try {
      report = await runTests(sandbox, { testScript, testParser, timeoutMs: testTimeoutMsOf(options, repo) });
    } finally {
      await sandbox.dispose();
    }
    process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : summary(repo.id, report));
    // 1 = the run finished but gave no trustworthy status map (timed out, or the parser failed).
    process.exitCode = report.timedOut || report.parserFailure ? 1 : 0;
  });
}
