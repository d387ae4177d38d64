import type PQueue from 'p-queue';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import { runPreparedTests } from '../harness/run-tests.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { reserveSandbox, type Reservation } from '../sandbox/pool/ahead-provider.js';
import { EngineError, errorMessage, isEngineError } from '../util/engine-error.js';
import { BaselineCache } from './baseline-cache.js';
import { EARLY_PRIORITY, type StateRun } from './state-runs.js';

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
  /** Told of every run this runner starts, by the check's name: the episode's count of runs. */
  onRun?: (name: string) => void;
}

/**
 * Runs a check's own script on B (O + bug_inject.diff) in a fresh sandbox, once per name and
 * script, through the validator's queue: for checks that need a focused run the artifact's script
 * cannot give (each oracle test alone, the tests in another order). Unguarded: the guard pins the
 * artifact's own runner records, which a check's script does not produce. Queued ahead of the
 * states other than O and B (see STATE_PRIORITY): it is the last run of a valid bug, and
 * starting it as soon as O and B are known keeps both cores busy to the end.
 */
export class ScriptRunner {
  private readonly runs = new Map<string, Promise<StateRun>>();
  private readonly live = new Set<Sandbox>();
  private cancelled = false;

  constructor(private readonly options: ScriptRunnerOptions) {}

  run(name: string, script: CheckScript): Promise<StateRun> {
    // Keyed by the script too: a prefetch and the check's own call must mean the same run.
    const key = BaselineCache.key([name, script.testScript, script.testParser]);
    let run = this.runs.get(key);
    if (!run) {
      // Announced now, so the provider can start its sandbox before the slot comes.
      const reservation = reserveSandbox(this.options.provider, this.options.template);
      const execute = (): Promise<StateRun> => this.execute(name, script, reservation).finally(() => reservation.release());
      run = this.options.queue.add(execute, { priority: EARLY_PRIORITY }) as Promise<StateRun>;
      this.runs.set(key, run);
    }
    return run;
  }

  /** The validation ended: start nothing new and tear down what still runs (a prefetched run nobody will read). */
  async cancel(): Promise<void> {
    this.cancelled = true;
    await Promise.all([...this.live].map((sandbox) => sandbox.dispose().catch(() => undefined)));
  }

  private async execute(name: string, script: CheckScript, reservation: Reservation): Promise<StateRun> {
    const { artifact, testTimeoutMs } = this.options;
    if (this.cancelled) return { status: 'error', error: new EngineError('internal', `check run ${name} cancelled`) };
    try {
      const sandbox = await reservation.acquire();
      this.live.add(sandbox);
      try {
        const steps = [{ apply: artifact.bugInject, label: 'bug_inject.diff' }];
        this.options.onRun?.(name);
        const outcome = await runPreparedTests(sandbox, steps, { ...script, timeoutMs: testTimeoutMs, guard: false });
        if (outcome.status === 'prepare-failed') {
          return { status: 'apply-failed', diff: 'bug_inject.diff', detail: outcome.failure.output.trim().split('\n').slice(0, 3).join(' | ') };
        }
        return { status: 'ran', report: outcome.run };
      } finally {
        this.live.delete(sandbox);
        await sandbox.dispose().catch(() => undefined);
      }
    } catch (error) {
      const engineError = isEngineError(error) ? error : new EngineError('sandbox-failed', `check run ${name}: ${errorMessage(error)}`, { cause: error, retryable: true });
      return { status: 'error', error: engineError };
    }
  }
}
