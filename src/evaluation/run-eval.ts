import PQueue from 'p-queue';
import type { AgentLimits } from '../agent/agent-limits.js';
import type { LeakPolicy } from '../agent/leak-flag.js';
import { writeJsonAtomic } from '../corpus/atomic-write.js';
import type { Policy } from '../policy/policy.js';
import { runGradedAttempt, type AttemptContext, type AttemptLine } from '../roles/graded-attempt.js';
import { validateForGrading } from '../roles/grading-oracle.js';
import { prepareTemplate } from '../sandbox/sandbox-factory.js';
import type { SandboxBackend, SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { judgeWithRetry, type JudgeOutcome } from './judge-with-retry.js';
import { isEngineError } from '../util/engine-error.js';
import type { ProgressSink } from '../util/progress.js';
import { seededRng } from '../util/seeded-rng.js';
import { BaselineCache } from '../validator/baseline-cache.js';
import { inverseRedundancyFor } from '../validator/inverse-redundancy-mode.js';
import type { EvalInstance } from './eval-instance.js';
import { appendAttempt, appendInvalid, evalPaths, readInvalidInstances, readScoredAttempts, type EvalAttempt } from './eval-log.js';
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
  /** An instance's sandbox template (default: prepareTemplate on `backend`); self-play on `--docker-host` engines gives its fleet's. */
  prepare?: (repo: ResolvedRepo) => Promise<SandboxTemplate>;
}

/** `eval.json` and `ssr eval --json`. */
export interface EvalSummary {
  set: string;
  policy: { name: string; version: number };
  attempts: number;
  instances: number;
  /** Instances not judged this run because infrastructure failed twice (see judgeWithRetry): a rerun tries them again. */
  notJudged: number;
  /** Instances tried a second time this run because infrastructure failed them or one of their attempts. */
  retried: number;
  /** Attempts of judged instances discarded for infrastructure (after the retry): left out of the rates. */
  discarded: number;
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
  const judge = async (instance: EvalInstance, position: string): Promise<JudgeOutcome> => {
    const done = scored.get(instance.instanceId) ?? new Map<number, EvalAttempt>();
    scored.set(instance.instanceId, done);
    const todo = Array.from({ length: options.attempts }, (_, i) => i + 1).filter((n) => !done.has(n));
    if (invalid.has(instance.instanceId) || todo.length === 0) return 'judged';
    try {
      const repo = instance.repo;
      const testTimeoutMs = resolveTestTimeoutMs(repo);
      const template = await (options.prepare ?? ((r: ResolvedRepo) => prepareTemplate(r, options.backend, options.progress)))(repo);
      const oracle = instance.oracle ?? (await oracleOf(instance, { repo, template, provider: options.provider, testTimeoutMs, queue: validationQueue, baselines, inverseRedundancy: inverseRedundancyFor(instance.kind) }));
      if ('failedCheck' in oracle) {
        await appendInvalid(options.out, { instanceId: instance.instanceId, ...oracle });
        invalid.set(instance.instanceId, { instanceId: instance.instanceId, ...oracle });
        options.onLine(`${position}: invalid (${oracle.failedCheck}: ${oracle.reason.slice(0, 120)}), left out of the rates`);
        return 'judged';
      }
      const ctx: AttemptContext = {
        policy: options.policy, template, provider: options.provider, artifact: instance.artifact, testRunner: repo.testRunner,
        originalPassing: oracle.originalPassing, originalGuarded: oracle.originalGuarded, toleratedTampering: oracle.toleratedTampering ?? [], testTimeoutMs, limits: options.limits, leakPolicy: options.leakPolicy,
        baseSeed: seededRng(options.seed).fork(instance.instanceId).int(2 ** 31), dir: evalPaths(options.out).attemptDir(instance.instanceId),
      };
      const lines = await Promise.all(todo.map((n) => attemptQueue.add(() => runGradedAttempt(ctx, n, instance.instanceId)) as Promise<AttemptLine>));
      for (const line of lines) {
        const attempt: EvalAttempt = { instanceId: instance.instanceId, attempt: line.attempt, reward: line.reward, code: line.code ?? null, exitStatus: line.exitStatus, turns: line.turns, reason: line.reason };
        await appendAttempt(options.out, attempt);
        if (line.reward !== null) done.set(line.attempt, attempt);
      }
      const rewards = lines.map((line) => (line.reward === null ? 'n/a' : line.reward > 0 ? '+1' : '-1'));
      options.onLine(`${position}: ${rewards.join(' ')} (${instance.kind})`);
      return lines.every((line) => line.reward !== null) ? 'judged' : 'incomplete';
    } catch (error) {
      if (!isEngineError(error)) throw error;
      options.onLine(`${position}: not judged (${error.message.split('\n')[0]} [${error.code}])`);
      return 'not-judged';
    }
  };
  const total = options.instances.length;
  // Infrastructure that failed an instance (or an attempt) gets one more try, then the instance is counted apart.
  const counts = await judgeWithRetry(
    options.instances,
    (instance, i, retry) => instanceQueue.add(() => judge(instance, `[${i + 1}/${total}] ${instance.instanceId}${retry ? ' (retry)' : ''}`)) as Promise<JudgeOutcome>,
    (instance) => instance.instanceId,
  );
  if (counts.notJudged.length > 0) options.onLine(`${counts.notJudged.length} instance(s) not judged after a retry (infrastructure), left out of the rates: ${counts.notJudged.slice(0, 5).join(', ')}; a rerun tries them again`);
  const notJudged = counts.notJudged.length;
  const summary = await summarise(options, { notJudged, retried: counts.retried, notJudgedIds: new Set(counts.notJudged) });
  await writeJsonAtomic(evalPaths(options.out).summary, summary);
  return summary;
}

async function oracleOf(instance: EvalInstance, validate: Parameters<typeof validateForGrading>[1]) {
  const oracle = await validateForGrading(instance.artifact, validate);
  if (oracle.status === 'invalid') return { failedCheck: oracle.failedCheck, reason: oracle.reason };
  return { originalPassing: oracle.originalPassing, originalGuarded: oracle.validation.originalGuarded, toleratedTampering: oracle.validation.toleratedTampering };
}

async function summarise(options: EvalOptions, retry: { notJudged: number; retried: number; notJudgedIds: ReadonlySet<string> }): Promise<EvalSummary> {
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
  // Attempts of judged instances that infrastructure discarded twice: not scored, so not in any rate.
  const discarded = outcomes.filter((o) => o.status === 'scored' && !retry.notJudgedIds.has(o.instanceId)).reduce((sum, o) => sum + Math.max(0, options.attempts - o.scored), 0);
  return {
    set: options.set, policy: { name: options.policy.name, version: options.policy.version }, attempts: options.attempts, instances: outcomes.length,
    notJudged: retry.notJudged, retried: retry.retried, discarded, ...tables, outcomes,
  };
}
