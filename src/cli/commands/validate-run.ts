import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import PQueue from 'p-queue';
import { artifactId } from '../../artifact/artifact-id.js';
import { loadArtifactDir } from '../../artifact/load-artifact.js';
import { progressDisplay } from '../../util/progress-display.js';
import { formatValidationTable } from '../../report/validation-table.js';
import { prepareTemplate, createProvider } from '../../sandbox/sandbox-factory.js';
import { AheadProvider } from '../../sandbox/pool/ahead-provider.js';
import { releaseProvider } from '../../sandbox/pool/release-provider.js';
import type { BugArtifact } from '../../artifact/bug-artifact.js';
import { sandboxBackend } from '../docker-host-options.js';
import { EngineError, errorMessage, isEngineError } from '../../util/engine-error.js';
import { BaselineCache } from '../../validator/baseline-cache.js';
import { validateArtifact, type ValidationResult } from '../../validator/validate-artifact.js';
import { inverseRedundancyOfDir } from '../artifact-dir-kind.js';
import { withBreadthFlags } from '../breadth-options.js';
import { resolveRepoOptions } from '../common-options.js';
import { flagSecondsToMs } from '../../config/test-timeout.js';
import type { ValidateOptions } from './validate.js';

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

/** A promise's outcome, kept to be read later: its rejection is not unhandled while the caller awaits something else first. */
function settled<T>(promise: Promise<T>): Promise<{ get: () => T }> {
  return promise.then(
    (value) => ({ get: () => value }),
    (error: unknown) => ({
      get: () => {
        throw error;
      },
    }),
  );
}

/** `ssr validate`'s action, loaded when the command runs (validate.ts registers its flags). */
export async function runValidate(options: ValidateOptions): Promise<void> {
  if ((options.artifact === undefined) === (options.artifactList === undefined)) {
    throw new EngineError('usage', 'give exactly one of --artifact <dir> or --artifact-list <file>');
  }
  // The Docker engine's probe is a round trip: it runs while the artifact and repos.yaml are read
  // and parsed (k8s's preflight loads the Kubernetes client, so it waits for good input as before).
  const early = options.sandbox === 'k8s' ? undefined : settled(sandboxBackend(options));
  const dirs = options.artifact !== undefined ? [resolve(options.artifact)] : await readArtifactList(resolve(options.artifactList!));
  // Load every artifact first: a bad input is a usage error before any sandbox starts (and before the probe's error).
  const single = options.artifact !== undefined ? await loadArtifactDir(dirs[0]!) : undefined;
  const repo = withBreadthFlags(await resolveRepoOptions(options), options);
  const backend = early ? await early.then((outcome) => outcome.get()) : await sandboxBackend(options);
  const display = progressDisplay(process.stderr);
  const template = await prepareTemplate(repo, backend, display.sink).finally(display.stop);
  // Each queued run's sandbox starts while the runs before it hold the slots (AheadProvider).
  const provider = new AheadProvider(createProvider(backend), options.concurrency);
  try {
    await validateWith(dirs, single, options, { repo, template, provider });
  } finally {
    await releaseProvider(provider, (line) => process.stderr.write(`${line}\n`));
  }
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
