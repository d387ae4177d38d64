import type PQueue from 'p-queue';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { runPreparedTests } from '../harness/run-tests.js';
import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { EngineError, errorMessage, isEngineError } from '../util/engine-error.js';
import type { StateRun } from './state-runs.js';

/** A script of a check's own (not the artifact's test_script.sh) and the parser of its log. */
export interface CheckScript {
  testScript: string;
  testParser: string;
}

export interface ScriptRunnerOptions {
  provider: SandboxProvider;
  template: SandboxTemplate;
  artifact: BugArtifact;
  testTimeoutMs: number;
  queue: PQueue;
}

/**
 * Runs a check's own script on B (O + bug_inject.diff) in a fresh sandbox, once per name, through
 * the validator's queue: for checks that need a focused run the artifact's script cannot give
 * (each oracle test alone, the tests in another order). Unguarded: the guard pins the artifact's
 * own runner records, which a check's script does not produce.
 */
export class ScriptRunner {
  private readonly runs = new Map<string, Promise<StateRun>>();

  constructor(private readonly options: ScriptRunnerOptions) {}

  run(name: string, script: CheckScript): Promise<StateRun> {
    let run = this.runs.get(name);
    if (!run) {
      run = this.options.queue.add(() => this.execute(name, script)) as Promise<StateRun>;
      this.runs.set(name, run);
    }
    return run;
  }

  private async execute(name: string, script: CheckScript): Promise<StateRun> {
    const { provider, template, artifact, testTimeoutMs } = this.options;
    try {
      const sandbox = await provider.acquire(template);
      try {
        const steps = [{ apply: artifact.bugInject, label: 'bug_inject.diff' }];
        const outcome = await runPreparedTests(sandbox, steps, { ...script, timeoutMs: testTimeoutMs, guard: false });
        if (outcome.status === 'prepare-failed') {
          return { status: 'apply-failed', diff: 'bug_inject.diff', detail: outcome.failure.output.trim().split('\n').slice(0, 3).join(' | ') };
        }
        return { status: 'ran', report: outcome.run };
      } finally {
        await sandbox.dispose().catch(() => undefined);
      }
    } catch (error) {
      const engineError = isEngineError(error) ? error : new EngineError('sandbox-failed', `check run ${name}: ${errorMessage(error)}`, { cause: error, retryable: true });
      return { status: 'error', error: engineError };
    }
  }
}
