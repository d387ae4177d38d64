import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import PQueue from 'p-queue';
import { artifactId } from '../../artifact/artifact-id.js';
import { loadArtifactDir } from '../../artifact/load-artifact.js';
import { progressDisplay } from '../../util/progress-display.js';
import { formatValidationTable } from '../../report/validation-table.js';
import { prepareTemplate, createProvider } from '../../sandbox/sandbox-factory.js';
import { AheadProvider } from '../../sandbox/pool/ahead-provider.js';
import { releaseProvider } from '../../sandbox/pool/release-provider.js';
import type { BugArtifact } from '../../artifact/bug-artifact.js';
import { addDockerHostOption, sandboxBackend } from '../docker-host-options.js';
import { EngineError, errorMessage, isEngineError } from '../../util/engine-error.js';
import { BaselineCache } from '../../validator/baseline-cache.js';
import { validateArtifact, type ValidationResult } from '../../validator/validate-artifact.js';
import { inverseRedundancyOfDir } from '../artifact-dir-kind.js';
import { addBreadthOptions, withBreadthFlags, type BreadthFlags } from '../breadth-options.js';
import type { SelectTestsMode } from '../../validator/selection/plan-selection.js';
import { addRepoOptions, addSandboxOption, positiveInt, resolveRepoOptions, type RepoOptions, type SandboxChoice } from '../common-options.js';
import { testTimeoutOption } from '../test-timeout-option.js';
import { flagSecondsToMs } from '../../config/test-timeout.js';

interface ValidateOptions extends RepoOptions, BreadthFlags {
  artifact?: string;
  artifactList?: string;
  json?: boolean;
  testTimeout?: number;
  concurrency: number;
  selectTests?: SelectTestsMode;
  sandbox: SandboxChoice;
  /** --docker-host (repeatable). */
  dockerHost?: string[];
}

/** Sandboxes at once: every state is CPU-bound pytest, so about one per core (at least 2 so I/O overlaps). */
export const DEFAULT_VALIDATE_CONCURRENCY = Math.max(2, cpus().length);

async function readArtifactList(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new EngineError('usage', `--artifact-list ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})`);
  }
  const dirs = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => resolve(dirname(file), line));
  if (dirs.length === 0) throw new EngineError('usage', `--artifact-list ${file}: lists no artifact directories`);
  return dirs;
}

/** Exit code of a verdict: 0 valid, 1 invalid, 2 not judged (infrastructure). */
function exitCodeOf(result: ValidationResult): number {
  return result.infrastructureError ? 2 : result.valid ? 0 : 1;
}

export function registerValidate(program: Command): void {
  const command = program
    .command('validate')
    .description('run the consistency checks (method §3 plus breadth and order independence) on a bug artifact (exit 0 valid, 1 invalid, 2 usage/infrastructure error)');
  addRepoOptions(command);
  command
    .option('--artifact <dir>', 'artifact directory with the five files (bug_inject.diff, test_weaken.diff, test_files.txt, test_script.sh, test_parser.py)')
    .option('--artifact-list <file>', 'file with one artifact directory per line (relative to the file); prints one JSON line per artifact')
    .option('--json', 'print one JSON object (the verdict) on stdout instead of a table')
    .addOption(testTimeoutOption())
    .option('--concurrency <n>', 'sandboxes running at once', positiveInt('--concurrency'), DEFAULT_VALIDATE_CONCURRENCY)
    .addOption(
      new Option('--select-tests <mode>', "run only the tests relevant to each bug: auto (by the clean run's per-test coverage on any suite; by the import graph when coverage cannot say and the clean suite takes at least repos.yaml's test_selection.above_s, default 30 s), always, never (default: the repo's test_selection.mode)").choices([
        'auto',
        'always',
        'never',
      ]),
    );
  addBreadthOptions(command);
  addSandboxOption(command);
  addDockerHostOption(command);
  command.action(async (options: ValidateOptions) => {
    if ((options.artifact === undefined) === (options.artifactList === undefined)) {
      throw new EngineError('usage', 'give exactly one of --artifact <dir> or --artifact-list <file>');
    }
    const dirs = options.artifact !== undefined ? [resolve(options.artifact)] : await readArtifactList(resolve(options.artifactList!));
    // Load every artifact first: a bad input is a usage error before any sandbox starts.
    const single = options.artifact !== undefined ? await loadArtifactDir(dirs[0]!) : undefined;
    const repo = withBreadthFlags(await resolveRepoOptions(options), options);
    const backend = await sandboxBackend(options);
    const display = progressDisplay(process.stderr);
    const template = await prepareTemplate(repo, backend, display.sink).finally(display.stop);
    // Each queued run's sandbox starts while the runs before it hold the slots (AheadProvider).
    const provider = new AheadProvider(createProvider(backend), options.concurrency);
    try {
      await validateWith(dirs, single, options, { repo, template, provider });
    } finally {
      await releaseProvider(provider, (line) => process.stderr.write(`${line}\n`));
    }
  });
}

/** The verdict on one artifact (a table, or `--json`), or one JSON line per artifact of a list; sets the exit code. */
async function validateWith(dirs: string[], single: BugArtifact | undefined, options: ValidateOptions, base: Pick<Parameters<typeof validateArtifact>[1], 'repo' | 'template' | 'provider'>): Promise<void> {
  const shared = {
    ...base,
    testTimeoutMs: flagSecondsToMs(options.testTimeout),
    queue: new PQueue({ concurrency: options.concurrency }),
    baselines: new BaselineCache(),
    ...(options.selectTests ? { selectTests: options.selectTests } : {}),
  };
  if (single) {
    // A mined bug's dir (ssr mine's bugs/<id>/) is a real fix: checked as ssr mine checked it.
    const result = await validateArtifact(single, { ...shared, inverseRedundancy: await inverseRedundancyOfDir(dirs[0]!) });
    process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : formatValidationTable(result, dirs[0]));
    process.exitCode = exitCodeOf(result);
    return;
  }
  process.exitCode = await validateList(dirs, shared);
}

/** One JSON line per artifact, in list order; a bad artifact dir is a line with its error, never a crash. */
async function validateList(dirs: string[], shared: Parameters<typeof validateArtifact>[1]): Promise<number> {
  const display = progressDisplay(process.stderr);
  let done = 0;
  let worst = 0;
  const results = dirs.map(async (dir) => {
    try {
      const artifact = await loadArtifactDir(dir);
      const result = await validateArtifact(artifact, { ...shared, inverseRedundancy: await inverseRedundancyOfDir(dir) });
      return { line: { artifact: dir, id: artifactId(artifact), ...result }, code: exitCodeOf(result) };
    } catch (error) {
      if (!isEngineError(error)) throw error;
      return { line: { artifact: dir, valid: false, error: { code: error.code, message: error.message } }, code: 2 };
    } finally {
      done += 1;
      display.sink({ stage: 'validate', message: `${done}/${dirs.length} artifacts`, fraction: done / dirs.length });
    }
  });
  for (const pending of results) {
    const { line, code } = await pending;
    worst = Math.max(worst, code);
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
  display.stop();
  return worst;
}
