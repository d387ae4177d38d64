import PQueue from 'p-queue';
import type { AgentLimits } from '../agent/agent-limits.js';
import type { LeakPolicy } from '../agent/leak-flag.js';
import { writeJsonAtomic } from '../corpus/atomic-write.js';
import type { Policy } from '../policy/policy.js';
import { runGradedAttempt, type AttemptContext, type AttemptLine } from '../roles/graded-attempt.js';
import { validateForGrading } from '../roles/grading-oracle.js';
import { prepareTemplate } from '../sandbox/sandbox-factory.js';
import type { SandboxBackend, SandboxProvider } from '../sandbox/sandbox.js';
import { isEngineError } from '../util/engine-error.js';
import type { ProgressSink } from '../util/progress.js';
import { seededRng } from '../util/seeded-rng.js';
import { BaselineCache } from '../validator/baseline-cache.js';
import type { EvalInstance } from './eval-instance.js';
import { appendAttempt, appendInvalid, evalPaths, readInvalidInstances, readScoredAttempts } from './eval-log.js';
import { evalTables, type EvalRow, type InstanceOutcome } from './eval-table.js';
import { resolveTestTimeoutMs } from '../config/test-timeout.js';

export interface EvalOptions {
  /** What `--set` named, for the summary. */
  set: string;
  instances: EvalInstance[];
  policy: Policy;
  backend: SandboxBackend;
  provider: SandboxProvider;
  /** k: attempts per instance. */
  attempts: number;
  /** Attempts (and validation sandboxes) running at once. */
  concurrency: number;
  out: string;
  limits: Partial<AgentLimits>;
  leakPolicy: LeakPolicy;
  seed: number;
  onLine: (line: string) => void;
  progress: ProgressSink;
}

/** `eval.json` and `ssr eval --json`. */
export interface EvalSummary {
  set: string;
  policy: { name: string; version: number };
  attempts: number;
  instances: number;
  /** Instances not judged this run because infrastructure failed: a rerun tries them again. */
  notJudged: number;
  all: EvalRow;
  byRepo: EvalRow[];
  byKind: EvalRow[];
  outcomes: InstanceOutcome[];
}

/**
 * Solve every instance k times with the policy and grade each attempt as `ssr grade` does, on
 * the instance's own image. Resumable: attempts already graded in `out` are not run again.
 */
export async function runEval(options: EvalOptions): Promise<EvalSummary> {
  // Instances run side by side, their attempts and validation runs on queues of their own (an
  // instance task waits on its attempts: one shared queue could fill with waiting instances).
  const instanceQueue = new PQueue({ concurrency: options.concurrency });
  const attemptQueue = new PQueue({ concurrency: options.concurrency });
  const validationQueue = new PQueue({ concurrency: options.concurrency });
  const baselines = new BaselineCache();
  const invalid = await readInvalidInstances(options.out);
  const scored = await readScoredAttempts(options.out);
  let notJudged = 0;
  const judge = async (instance: EvalInstance, position: string): Promise<void> => {
    const done = scored.get(instance.instanceId) ?? new Map();
    const todo = Array.from({ length: options.attempts }, (_, i) => i + 1).filter((n) => !done.has(n));
    if (invalid.has(instance.instanceId) || todo.length === 0) return;
    try {
      const repo = instance.repo;
      const testTimeoutMs = resolveTestTimeoutMs(repo);
      const template = await prepareTemplate(repo, options.backend, options.progress);
      const oracle = instance.oracle ?? (await oracleOf(instance, { repo, template, provider: options.provider, testTimeoutMs, queue: validationQueue, baselines }));
      if ('failedCheck' in oracle) {
        await appendInvalid(options.out, { instanceId: instance.instanceId, ...oracle });
        options.onLine(`${position}: invalid (${oracle.failedCheck}: ${oracle.reason.slice(0, 120)}), left out of the rates`);
        return;
      }
      const ctx: AttemptContext = {
        policy: options.policy, template, provider: options.provider, artifact: instance.artifact, testRunner: repo.testRunner,
        originalPassing: oracle.originalPassing, originalGuarded: oracle.originalGuarded, testTimeoutMs, limits: options.limits, leakPolicy: options.leakPolicy,
        baseSeed: seededRng(options.seed).fork(instance.instanceId).int(2 ** 31), dir: evalPaths(options.out).attemptDir(instance.instanceId),
      };
      const lines = await Promise.all(todo.map((n) => attemptQueue.add(() => runGradedAttempt(ctx, n, instance.instanceId)) as Promise<AttemptLine>));
      for (const line of lines) {
        await appendAttempt(options.out, { instanceId: instance.instanceId, attempt: line.attempt, reward: line.reward, code: line.code ?? null, exitStatus: line.exitStatus, turns: line.turns, reason: line.reason });
      }
      const rewards = lines.map((line) => (line.reward === null ? 'n/a' : line.reward > 0 ? '+1' : '-1'));
      options.onLine(`${position}: ${rewards.join(' ')} (${instance.kind})`);
    } catch (error) {
      if (!isEngineError(error)) throw error;
      notJudged += 1;
      options.onLine(`${position}: not judged (${error.message.split('\n')[0]} [${error.code}]); a rerun tries it again`);
    }
  };
  const total = options.instances.length;
  await Promise.all(options.instances.map((instance, i) => instanceQueue.add(() => judge(instance, `[${i + 1}/${total}] ${instance.instanceId}`))));
  const summary = await summarise(options, notJudged);
  await writeJsonAtomic(evalPaths(options.out).summary, summary);
  return summary;
}

async function oracleOf(instance: EvalInstance, validate: Parameters<typeof validateForGrading>[1]) {
  const oracle = await validateForGrading(instance.artifact, validate);
  if (oracle.status === 'invalid') return { failedCheck: oracle.failedCheck, reason: oracle.reason };
  return { originalPassing: oracle.originalPassing, originalGuarded: oracle.validation.originalGuarded };
}

async function summarise(options: EvalOptions, notJudged: number): Promise<EvalSummary> {
  const scored = await readScoredAttempts(options.out);
  const invalid = await readInvalidInstances(options.out);
  const outcomes: InstanceOutcome[] = options.instances.map((instance) => {
    // Only attempts 1..k count: a rerun with a smaller --attempts reads the first k.
    const attempts = [...(scored.get(instance.instanceId)?.values() ?? [])].filter((a) => a.attempt <= options.attempts);
    return {
      instanceId: instance.instanceId, repo: instance.repo.id, kind: instance.kind, status: invalid.has(instance.instanceId) ? 'invalid' : 'scored',
      scored: attempts.length, solved: attempts.filter((a) => a.reward === 1).length,
    };
  });
  const tables = evalTables(outcomes, options.attempts);
  return { set: options.set, policy: { name: options.policy.name, version: options.policy.version }, attempts: options.attempts, instances: outcomes.length, notJudged, ...tables, outcomes };
}
