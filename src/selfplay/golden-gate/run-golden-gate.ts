import { repoTestFiles, runnerOf } from '../../harness/repo-test-files.js';
import { runTests } from '../../harness/run-tests.js';
import { EngineError } from '../../util/engine-error.js';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { SandboxProvider, SandboxTemplate } from '../../sandbox/sandbox.js';
import { missingJsModuleIn } from './missing-js-module.js';
import { missingModuleIn, ownModuleTest } from './missing-module.js';
import { networkFailureIn } from './network-failure.js';
import { judgeGoldenGate, type CleanRun, type GoldenGate } from './judge-golden-gate.js';

export interface GoldenGateOptions {
  repo: ResolvedRepo;
  template: SandboxTemplate;
  provider: SandboxProvider;
  /** The configured test time limit, ms. */
  testTimeoutMs: number;
  /** Sees each clean run as it ends (`ssr init` counts the passing tests of the clean suite). */
  onCleanRun?: (run: CleanRun) => void;
}

/** One clean run (O, the repo runner's default script and parser) in a fresh sandbox. */
async function cleanRun(options: GoldenGateOptions): Promise<CleanRun> {
  const sandbox = await options.provider.acquire(options.template);
  const started = Date.now();
  try {
    const report = await runTests(sandbox, { ...repoTestFiles(options.repo), timeoutMs: options.testTimeoutMs });
    const logTail = report.log.trim().split('\n').at(-1)?.trim();
    const networkFailure = networkFailureIn(report.log);
    const python = runnerOf(options.repo) === 'pytest';
    const missing = python ? missingModuleIn(report.log) : missingJsModuleIn(report.log);
    // The module name comes from the log as \w+ only, so it is safe in the shell test.
    if (missing && python) missing.own = (await sandbox.exec(ownModuleTest(missing.module), { timeoutMs: 10_000 })).exitCode === 0;
    return {
      statuses: report.statuses, durationMs: report.durationMs, timedOut: report.timedOut, exitCode: report.exitCode,
      ...(logTail ? { logTail } : {}), ...(report.parserFailure ? { parserFailure: report.parserFailure.message } : {}),
      ...(networkFailure ? { networkFailure } : {}), ...(missing ? { missingModule: missing } : {}),
      ...(report.material?.changes.length ? { materialChanges: report.material.changes } : {}),
      ...(report.guard?.tampered.length ? { guardTampered: report.guard.tampered } : {}),
      ...(report.material ? { materialMode: report.material.mode } : {}),
    };
  } catch (error) {
    // A suite that needs more memory than the repo's limit is a fact about the repo, refused with
    // its fix, not an infrastructure failure to retry.
    if (error instanceof EngineError && error.code === 'sandbox-oom') return { statuses: {}, durationMs: Date.now() - started, timedOut: false, killedForMemory: true };
    throw error;
  } finally {
    await sandbox.dispose().catch(() => undefined);
  }
}

/**
 * The golden gate of a repo: its clean suite (the default test script and parser on O) twice,
 * one after the other so they do not slow each other down, then {@link judgeGoldenGate}.
 * @throws EngineError when the infrastructure fails (never a verdict on the repo).
 */
export async function runGoldenGate(options: GoldenGateOptions): Promise<GoldenGate> {
  const first = await cleanRun(options);
  options.onCleanRun?.(first);
  // A first run that hung, ran out of memory or found no tests decides the verdict: a second
  // would only cost the same again.
  const stopEarly = first.timedOut || first.killedForMemory || (runnerOf(options.repo) === 'pytest' && first.exitCode === 5);
  const second = stopEarly ? first : await cleanRun(options);
  if (!stopEarly) options.onCleanRun?.(second);
  return judgeGoldenGate([first, second], options.testTimeoutMs, { repo: options.repo.id, commit: options.repo.commit, image: options.template.ref }, {
    minPassingTests: options.repo.thresholds.min_passing_tests,
    memoryMb: options.repo.limits.memory_mb,
    runner: runnerOf(options.repo),
  });
}
