import PQueue from 'p-queue';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { TestReport } from '../harness/test-report.js';
import type { PrepareFailure, PrepareStep } from '../harness/prepare-steps.js';
import { runPreparedTests } from '../harness/run-tests.js';
import type { ParserVerdict } from '../harness/read-parser-output.js';
import type { Sandbox, SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { reserveSandbox, type Reservation } from '../sandbox/pool/ahead-provider.js';
import { applyDiff } from '../workspace/apply-diff.js';
import { EngineError, errorMessage, isEngineError } from '../util/engine-error.js';
import type { BaselineCache } from './baseline-cache.js';
import { stateRunKey } from './run-identity.js';
import { listFilesIn, listOriginalFiles, readDoctestFilesIn, readOriginalDoctestFiles } from './original-files.js';
import { ORIGINAL_TREE, stateTrees } from './state-tree.js';

/** The repo states of method §3: O (twice), B, W, and B with one file reverted. */
export type StateKey = 'original' | 'original-repeat' | 'buggy' | 'weakened' | `inverse:${string}`;

/** Outcome of preparing a state and running the tests on it. `error` is infrastructure, never the artifact's fault. */
export type StateRun =
  | { status: 'ran'; report: TestReport; reparse?: ParserVerdict }
  | { status: 'apply-failed'; diff: 'bug_inject.diff' | 'test_weaken.diff'; detail: string }
  | { status: 'error'; error: EngineError };

/** A state whose tests never ran: a diff did not apply, or the infrastructure failed. */
export type NotRan = Exclude<StateRun, { status: 'ran' }>;

export interface StateRunnerOptions {
  provider: SandboxProvider;
  template: SandboxTemplate;
  artifact: BugArtifact;
  /** Files bug_inject.diff changes; one inverse run each. */
  bugFiles: string[];
  testTimeoutMs: number;
  queue: PQueue;
  baselines: BaselineCache;
  /** What a run depends on besides its tree (image, commit, script, parser, limit): the cache key's prefix. */
  runIdentity: readonly string[];
  /**
   * The reference path: every state runs for itself when a check first asks for it, one after
   * another, with no cache and no sharing of equal trees. Slow; the parallel path must agree
   * with it (test/integration/validator/parallel-equivalence.test.ts).
   */
  sequential?: boolean;
  /** Extra environment of every test run (relevant-test selection); part of `runIdentity` too. */
  env?: Record<string, string>;
  /** Told of every test run this runner starts (not of one the cache answers): the episode's count of runs. */
  onRun?: (key: StateKey) => void;
}

/**
 * Queue priority of O's first run and B's: most checks and the checks' own runs (ScriptRunner)
 * need both, so they go first, and the runs that need only one state (O's repeat, W, the
 * inverses) fill the slots after them.
 */
export const EARLY_PRIORITY = 1;

/**
 * Holds a finished run's queue slot for one turn of the event loop after its result is out. The
 * queue gives a freed slot to the next waiting run at once, in a microtask, before the checks
 * have read the result; a run that result makes necessary (the order run needs B's failing tests)
 * would then wait behind every state nobody waits for yet (O's repeat, W, the inverses) although
 * it is the validation's longest and last. By the next turn the checks have queued it, ahead of
 * those states (EARLY_PRIORITY), and it takes this slot.
 */
function handOverSlot(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Runs that ended because their runner was cancelled: never a result another artifact may reuse. */
const cancelledRuns = new WeakSet<StateRun>();

/**
 * Runs every state in its own fresh sandbox, each at most once, through a shared bounded queue.
 * All states are independent, so `prefetch` starts them all at once: the checks then read
 * results in order, and the wall time approaches one run instead of the sum (method §3 asks for
 * the inverse runs in parallel; the original and buggy runs gain the same way). A state whose tree
 * (state-tree.ts) already ran, for this artifact or an earlier one in the process, reuses that
 * run through the baseline cache instead of starting a sandbox.
 */
export class StateRunner {
  private readonly runs = new Map<StateKey, Promise<StateRun>>();
  private readonly live = new Set<Sandbox>();
  private readonly disposals = new Set<Promise<unknown>>();
  private readonly treeOf: (key: StateKey) => string | undefined;
  private cancelled = false;

  constructor(private readonly options: StateRunnerOptions) {
    this.treeOf = stateTrees(options.artifact);
  }

  /**
   * Start every state now (bounded by the queue); the reference path starts nothing ahead.
   * `repeat: false`: not O's second run; `buggy: false`: not B (a selected runner's B is the full one).
   */
  prefetch(options: { repeat?: boolean; buggy?: boolean } = {}): void {
    if (this.options.sequential) return;
    // O and B first: with the slots full, a state queued later waits, and most checks need those two.
    const buggy = options.buggy === false ? [] : (['buggy'] as const);
    const repeat = options.repeat === false ? [] : (['original-repeat'] as const);
    for (const key of ['original', ...buggy, ...repeat, 'weakened'] as const) this.get(key);
    for (const file of this.options.bugFiles) this.get(`inverse:${file}`);
  }

  /**
   * A check failed and the rest are not needed: start nothing new and tear down the sandboxes
   * still running (a hanging script would otherwise hold the process for its whole time limit).
   */
  async cancel(): Promise<void> {
    this.cancelled = true;
    await Promise.all([...this.live].map((sandbox) => sandbox.dispose().catch(() => undefined)));
    await Promise.all([...this.disposals]);
  }

  /**
   * Whether the state's diffs applied: undefined when they did, the `apply-failed`/`error` run
   * otherwise. Known when its run ends (the diffs are applied in the same exec as the tests; a
   * diff that does not apply ends that exec at once).
   */
  async preparation(key: 'buggy' | 'weakened'): Promise<NotRan | undefined> {
    const run = await this.get(key);
    return run.status === 'ran' ? undefined : run;
  }

  /**
   * Every tracked file of O: read in the original run's own sandbox (no sandbox of its own), or
   * from the cache when an earlier artifact read it; the reference path lists it in a throwaway sandbox.
   */
  async originalFiles(): Promise<ReadonlySet<string>> {
    const key = this.filesKey();
    const { baselines, provider, template } = this.options;
    if (!this.options.sequential && !baselines.has(key)) await this.get('original');
    return baselines.getOrRun(key, () => listOriginalFiles(provider, template));
  }

  /**
   * O's Python files holding doctest examples, with their text (see readDoctestFilesIn): read in
   * the original run's sandbox like {@link originalFiles}, or from the cache; the reference path
   * reads them in a throwaway sandbox.
   */
  async originalDoctestFiles(): Promise<ReadonlyMap<string, string>> {
    const key = this.doctestFilesKey();
    const { baselines, provider, template } = this.options;
    if (!this.options.sequential && !baselines.has(key)) await this.get('original');
    return baselines.getOrRun(key, () => readOriginalDoctestFiles(provider, template));
  }

  get(key: StateKey): Promise<StateRun> {
    let run = this.runs.get(key);
    if (!run) {
      run = this.options.sequential ? this.enqueue(key) : this.shared(key);
      this.runs.set(key, run);
    }
    return run;
  }

  /** The run of the state's tree from the cache, or a new one; a run another artifact cancelled is started again. */
  private async shared(key: StateKey): Promise<StateRun> {
    const tree = this.treeOf(key);
    if (tree === undefined) return this.enqueue(key);
    // Every state on O's tree reads the first original run, which carries the parser's second parse.
    const canonical: StateKey = tree === ORIGINAL_TREE && key !== 'original-repeat' ? 'original' : key;
    const cacheKey = stateRunKey(this.options.runIdentity, tree, key === 'original-repeat');
    for (;;) {
      const run = await this.options.baselines.getOrRun(cacheKey, () => this.enqueue(canonical), (done) => done.status !== 'error');
      if (!cancelledRuns.has(run) || this.cancelled) return run;
    }
  }

  private enqueue(key: StateKey): Promise<StateRun> {
    const priority = key === 'original' || key === 'buggy' ? EARLY_PRIORITY : 0;
    // Announced now, so the provider can start its sandbox while the runs before it hold the slots.
    const reservation = reserveSandbox(this.options.provider, this.options.template);
    return new Promise<StateRun>((resolve, reject) => {
      void this.options.queue.add(
        async () => {
          const run = await this.executeWithRetry(key, reservation).catch((error: unknown) => {
            reject(error);
            throw error;
          });
          resolve(run);
          await handOverSlot();
        },
        { priority },
      ).catch(() => undefined);
    });
  }

  private filesKey(): string {
    return `files:${this.options.template.ref}`;
  }

  private doctestFilesKey(): string {
    return `doctest-files:${this.options.template.ref}`;
  }

  /** One retry for a retryable infrastructure failure (a container that died, a daemon hiccup). */
  private async executeWithRetry(key: StateKey, reservation: Reservation): Promise<StateRun> {
    try {
      const first = await this.execute(key, reservation);
      const run = first.status !== 'error' || !first.error.retryable || this.cancelled ? first : await this.execute(key);
      if (run.status === 'error' && this.cancelled) cancelledRuns.add(run);
      return run;
    } finally {
      // A run cancelled before it started never drew its sandbox: the provider need not keep one.
      reservation.release();
    }
  }

  /** One attempt: in the reserved sandbox when there is one (the first), else in a fresh one acquired now (the retry). */
  private async execute(key: StateKey, reservation?: Reservation): Promise<StateRun> {
    if (this.cancelled) return { status: 'error', error: new EngineError('internal', `run of ${key} cancelled`) };
    let sandbox: Sandbox | undefined;
    try {
      sandbox = await (reservation ? reservation.acquire() : this.options.provider.acquire(this.options.template));
      this.live.add(sandbox);
      // O's file list costs one exec here instead of a sandbox of its own (existence reads it), and
      // so do O's doctest files (existence reads them to classify the diffs' hunks): both read-only,
      // so they run at once, not one engine round trip after the other, before the tests start.
      if (key === 'original' && !this.options.sequential) await this.offerOriginalReads(sandbox);
      const { testScript, testParser } = this.options.artifact;
      const steps = this.stepsOf(key);
      // The parser check feeds the same original log twice: a parser must be a function of its input.
      const env = this.options.env ? { env: this.options.env } : {};
      this.options.onRun?.(key);
      const outcome = await runPreparedTests(sandbox, steps, { testScript, testParser, timeoutMs: this.options.testTimeoutMs, reparse: key === 'original', ...env });
      if (outcome.status === 'prepare-failed') return await this.describeFailedStep(sandbox, key, steps, outcome.failure);
      const { reparse, ...report } = outcome.run;
      return { status: 'ran', report, ...(reparse ? { reparse } : {}) };
    } catch (error) {
      const engineError = isEngineError(error)
        ? error
        : new EngineError('sandbox-failed', `state ${key}: ${errorMessage(error)}`, { cause: error, retryable: true });
      return { status: 'error', error: engineError };
    } finally {
      if (sandbox) {
        this.live.delete(sandbox);
        // Not awaited: the queue slot goes to the next state while the engine removes this one.
        const disposal = sandbox.dispose().catch(() => undefined);
        this.disposals.add(disposal);
        void disposal.finally(() => this.disposals.delete(disposal));
      }
    }
  }

  private async offerOriginalReads(sandbox: Sandbox): Promise<void> {
    const { baselines } = this.options;
    const files = baselines.has(this.filesKey()) ? undefined : listFilesIn(sandbox);
    const doctests = baselines.has(this.doctestFilesKey()) ? undefined : readDoctestFilesIn(sandbox);
    // Promise.all handles a late rejection of the other read too: none goes unhandled.
    const [listed, read] = await Promise.all([files, doctests]);
    if (listed) baselines.offer(this.filesKey(), listed);
    if (read) baselines.offer(this.doctestFilesKey(), read);
  }

  /** What brings a fresh sandbox (at O) to the state, done in the same exec as its tests. */
  private stepsOf(key: StateKey): PrepareStep[] {
    if (key === 'original' || key === 'original-repeat') return [];
    const { bugInject, testWeaken } = this.options.artifact;
    const steps: PrepareStep[] = [{ apply: bugInject, label: 'bug_inject.diff' }];
    if (key === 'weakened') steps.push({ apply: testWeaken, label: 'test_weaken.diff' });
    if (key.startsWith('inverse:')) steps.push({ revert: key.slice('inverse:'.length) });
    return steps;
  }

  /**
   * A step failed in the driver, which left the tree as it was before that step. A diff that did
   * not apply is the artifact's fault: it is tried again with the tolerant chain, only to say
   * whether it needs 3-way or fuzz or does not apply at all. A revert that failed is the engine's.
   */
  private async describeFailedStep(sandbox: Sandbox, key: StateKey, steps: PrepareStep[], failure: PrepareFailure): Promise<StateRun> {
    const step = steps[failure.step];
    if (!step || 'revert' in step) {
      const what = step ? `reverting ${step.revert}` : `preparation step ${failure.step}`;
      return { status: 'error', error: new EngineError('sandbox-failed', `state ${key}: ${what} failed (exit ${failure.exitCode}): ${failure.output.trim().slice(-500)}`, { retryable: true }) };
    }
    const diff = step.label === 'test_weaken.diff' ? 'test_weaken.diff' : 'bug_inject.diff';
    const again = await applyDiff(sandbox, step.apply, { label: diff });
    if (again.status === 'applied' && again.method === 'git-apply') {
      return { status: 'error', error: new EngineError('sandbox-failed', `state ${key}: ${diff} failed to apply in the test driver (exit ${failure.exitCode}) but applied on retry`, { retryable: true }) };
    }
    return { status: 'apply-failed', diff, detail: describeApply(again) };
  }
}

type ApplyOutcome = Awaited<ReturnType<typeof applyDiff>>;

/** Validation demands an exact apply: a diff that needs 3-way or fuzz is not the diff the Injector made. */
function describeApply(result: ApplyOutcome): string {
  if (result.status === 'applied') return `applies only with ${result.method}, not cleanly with git apply`;
  const first = result.attempts[0];
  return `does not apply: ${first ? first.output.trim().split('\n').slice(0, 3).join(' | ') : 'no attempt output'}`;
}
