import { readDefaultTestFiles } from '../../harness/default-files.js';
import { runTests } from '../../harness/run-tests.js';
import type { ResolvedRepo } from '../../config/resolve-repo.js';
import type { SandboxProvider, SandboxTemplate } from '../../sandbox/sandbox.js';
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

/** One clean run (O, the default pytest script and parser) in a fresh sandbox. */
async function cleanRun(options: GoldenGateOptions): Promise<CleanRun> {
  const sandbox = await options.provider.acquire(options.template);
  try {
    const report = await runTests(sandbox, { ...readDefaultTestFiles(), timeoutMs: options.testTimeoutMs });
    return { statuses: report.statuses, durationMs: report.durationMs, timedOut: report.timedOut, ...(report.parserFailure ? { parserFailure: report.parserFailure.message } : {}) };
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
  const second = await cleanRun(options);
  options.onCleanRun?.(second);
  return judgeGoldenGate([first, second], options.testTimeoutMs, { repo: options.repo.id, commit: options.repo.commit, image: options.template.ref });
}
