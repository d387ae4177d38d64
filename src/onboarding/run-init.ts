import { existsSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { loadReposFile } from '../config/load-repos.js';
import { imageRecipeSchema, repoEntrySchema, type ImageRecipe } from '../config/repos-schema.js';
import { resolveRepo, type ResolvedRepo } from '../config/resolve-repo.js';
import { createProvider, prepareTemplate } from '../sandbox/sandbox-factory.js';
import type { SandboxBackend } from '../sandbox/sandbox.js';
import { runGoldenGate } from '../selfplay/golden-gate/run-golden-gate.js';
import type { CleanRun } from '../selfplay/golden-gate/judge-golden-gate.js';
import { installStep, missingModuleHint } from '../selfplay/golden-gate/missing-module.js';
import { noNetworkHint } from '../selfplay/golden-gate/network-failure.js';
import { EngineError, isEngineError } from '../util/engine-error.js';
import type { ProgressSink } from '../util/progress.js';
import { detectRepo } from './detect-repo.js';
import type { InitResult } from './init-result.js';
import { repoFilesAt } from './repo-files.js';
import { writeReposEntry } from './write-repos-entry.js';
import { resolveTestTimeoutMs } from '../config/test-timeout.js';
import { cpuPressureShare, cpuPressureTotalUs } from './cpu-pressure.js';
import { decideInitTestTimeout } from './init-test-timeout.js';

export interface InitOptions {
  /** The local git repository to onboard (its HEAD). */
  path: string;
  /** The repos.yaml to write (created when absent). */
  reposFile: string;
  /** Entry id; default: the directory's name, lower-cased. */
  id?: string;
  backend: SandboxBackend;
  /** Decide and gate, but write nothing. */
  dryRun: boolean;
  /** limits.test_timeout_s the gate starts from (default 90): a slow suite or a loaded machine. */
  testTimeoutS?: number;
  progress: ProgressSink;
}

/** An id already used by another repo's entry is never overwritten: the user picks another. */
async function refuseForeignId(reposFile: string, id: string, path: string): Promise<void> {
  if (!existsSync(reposFile)) return;
  const repos = await loadReposFile(reposFile);
  const existing = repos.file.repos.find((repo) => repo.id === id);
  if (!existing) return;
  const source = existing.source.path === undefined ? existing.source.git! : resolve(repos.baseDir, existing.source.path);
  if (source !== path) throw new EngineError('usage', `${reposFile} already has an entry "${id}" for ${source}: pass --id <another id>`);
}

/** method §3's default; a suite with fewer passing tests gets its own count so validation can pass at all. */
const DEFAULT_MIN_PASSING = 10;

function defaultId(path: string): string {
  return basename(path).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '') || 'repo';
}

/** Passed and failed tests of a clean run, the quarantined (flaky) ones left out. */
function countClean(run: CleanRun, quarantined: readonly string[]): { passed: number; failed: number } {
  const statuses = Object.entries(run.statuses).filter(([test]) => !quarantined.includes(test));
  const passed = statuses.filter(([, status]) => status === 'passed').length;
  return { passed, failed: statuses.length - passed };
}

/**
 * `ssr init`: detect a repo's language, test runner and dependencies, build its image and run
 * its clean suite twice (the golden gate), then write a repos.yaml entry with what was found —
 * or, when something cannot be decided, write nothing and say which field settles it.
 * @throws EngineError on bad input (not a git repo) or infrastructure failures (no Docker).
 */
export async function runInit(options: InitOptions): Promise<InitResult> {
  const path = resolve(options.path);
  const reposFile = resolve(options.reposFile);
  const byPath = await resolveRepo(path, undefined);
  const id = options.id ?? defaultId(path);
  const idCheck = repoEntrySchema.shape.id.safeParse(id);
  if (!idCheck.success) throw new EngineError('usage', `--id ${id}: ${idCheck.error.issues[0]!.message}`);
  const result: InitResult = {
    status: 'undecided', path, commit: byPath.commit, id, reposFile, language: null, runner: null, dependencies: [],
    gate: null, cleanSuite: null, entry: null, replaced: false, undecided: [], notes: [],
  };
  await refuseForeignId(reposFile, id, path);
  const detection = await detectRepo(await repoFilesAt(path, byPath.commit));
  Object.assign(result, { language: detection.language, runner: detection.runner, dependencies: detection.dependencies });
  result.undecided.push(...detection.undecided);
  result.notes.push(...detection.notes);
  if (detection.undecided.length > 0 || detection.testRunner === undefined || result.runner === null || result.language === null) return result;
  const { testRunner, setup } = detection;
  const language = result.language.language;
  const limits = options.testTimeoutS === undefined ? byPath.limits : { ...byPath.limits, test_timeout_s: options.testTimeoutS };
  const repo: ResolvedRepo = { ...byPath, id, image: imageRecipeSchema.parse({ setup }), testRunner, limits };
  const test = testRunner === 'pytest' ? {} : { test: { runner: testRunner } };
  const outcome = await gate(repo, options, result, true);
  if (!outcome) return result;
  const { decided: gated, image } = outcome;
  const written = { ...(image.packages.length > 0 ? { packages: image.packages } : {}), ...(image.setup.length > 0 ? { setup: image.setup } : {}) };
  const entry = repoEntrySchema.parse({
    id,
    source: { path: relative(dirname(reposFile), path) || '.', commit: byPath.commit },
    ...(Object.keys(written).length > 0 ? { image: written } : {}),
    ...test,
    ...gated,
  });
  result.entry = compact(entry, written, { ...test, ...gated });
  if (options.dryRun) {
    result.status = 'dry-run';
    return result;
  }
  const comment = `${id}: written by ssr init: ${language}, ${result.runner.runner} (${result.runner.evidence.join('; ')}); test command: ${result.runner.testCommand}`;
  result.replaced = await writeReposEntry(reposFile, result.entry as { id: string }, comment);
  result.status = 'written';
  return result;
}

/** The entry as written: the fields init decided, the rest left to the schema's defaults. */
function compact(entry: ReturnType<typeof repoEntrySchema.parse>, image: object, gated: object): Record<string, unknown> {
  return { id: entry.id, source: entry.source, ...(Object.keys(image).length > 0 ? { image } : {}), ...gated };
}



/**
 * Build the image and run the golden gate. Returns the thresholds / limits the clean suite calls
 * for and the image recipe it passed with, or undefined after recording why the repo cannot be
 * decided (a failing setup step, a refused gate, no passing test). A gate that fails because the
 * tests cannot import a module is tried once more with the line that installs it (`retry`), so
 * the entry comes out with that line or the refusal says it was tried. Infrastructure failures propagate.
 */
async function gate(repo: ResolvedRepo, options: InitOptions, result: InitResult, retry: boolean): Promise<{ decided: object; image: ImageRecipe } | undefined> {
  let template;
  try {
    template = await prepareTemplate(repo, options.backend, options.progress);
  } catch (error) {
    if (isEngineError(error) && (error.code === 'image-build-failed' || error.code === 'config-invalid')) {
      result.undecided.push({ field: 'image.setup', why: `the image does not build: ${error.message}` });
      return undefined;
    }
    throw error;
  }
  const runs: CleanRun[] = [];
  const limitMs = resolveTestTimeoutMs(repo);
  options.progress({ stage: 'golden gate', message: 'running the clean test suite twice' });
  // init decides min_passing_tests from what passes here: the gate must not refuse a small suite for the default.
  const gated = { ...repo, thresholds: { ...repo.thresholds, min_passing_tests: 1 } };
  // How busy the machine was while the clean runs ran decides whether a raised limit is written (decideInitTestTimeout).
  const [pressureStart, gateStart] = [await cpuPressureTotalUs(), Date.now()];
  const verdict = await runGoldenGate({ repo: gated, template, provider: createProvider(options.backend), testTimeoutMs: limitMs, onCleanRun: (run) => runs.push(run) });
  const cpuPressure = cpuPressureShare(pressureStart, await cpuPressureTotalUs(), Date.now() - gateStart);
  result.gate = verdict;
  const missing = runs.find((run) => run.missingModule !== undefined && !run.missingModule.own)?.missingModule;
  const failedToRun = verdict.status === 'refused' || (runs[0] !== undefined && countClean(runs[0], verdict.quarantined).passed === 0);
  // init's one retry installs a Python module with pip; a missing npm package is only named (its fix is package.json and its lockfile).
  if (failedToRun && missing !== undefined && missing.node !== true && retry) {
    const step = installStep(missing);
    result.notes.push(`the clean suite could not import ${missing.module} ("${missing.error}"): tried the gate again once with the image.setup step ${JSON.stringify(step)}`);
    options.progress({ stage: 'golden gate', message: `${missing.error}: trying again with the image.setup step ${JSON.stringify(step)}` });
    return gate({ ...repo, image: { ...repo.image, setup: [...repo.image.setup, step] } }, options, result, false);
  }
  if (verdict.status === 'refused') {
    result.undecided.push({ field: runs.some((run) => run.timedOut) ? 'limits.test_timeout_s' : missing === undefined ? 'tests' : 'image.setup', why: verdict.reason });
    return undefined;
  }
  if (runs.length === 0) throw new EngineError('internal', 'the golden gate passed without a clean run');
  result.cleanSuite = countClean(runs[0]!, verdict.quarantined);
  const { passed, failed } = result.cleanSuite;
  const network = runs.find((run) => run.networkFailure !== undefined)?.networkFailure;
  const offline = network === undefined ? '' : noNetworkHint(network);
  const cause = missing === undefined ? '' : missingModuleHint(missing);
  const field = missing === undefined ? 'tests' : 'image.setup';
  if (passed === 0) {
    result.undecided.push({ field, why: `no test passes on the clean repo (${failed} fail): fix the test set-up (missing dependencies? add image.setup steps)${cause}${offline}` });
    return undefined;
  }
  if (failed > 0) result.notes.push(`${failed} test(s) fail on the clean repo: an Injector's test selection must leave them out${cause}${offline}`);
  if (verdict.quarantined.length > 0) result.notes.push(`${verdict.quarantined.length} flaky test(s) differ between the clean runs; the golden gate quarantines them in every run`);
  const decided: Record<string, object> = {};
  if (passed < DEFAULT_MIN_PASSING) {
    decided.thresholds = { min_passing_tests: passed };
    result.notes.push(`only ${passed} test(s) pass: thresholds.min_passing_tests set to ${passed} (default ${DEFAULT_MIN_PASSING})`);
  }
  const { timeout, note } = decideInitTestTimeout(verdict, repo.limits.test_timeout_s, cpuPressure);
  result.testTimeout = timeout;
  if (note !== undefined) result.notes.push(note);
  decided.limits = { test_timeout_s: timeout.written };
  return { decided, image: repo.image };
}
