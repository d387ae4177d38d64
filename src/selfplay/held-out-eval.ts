import { rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../corpus/atomic-write.js';
import { readCorpus } from '../corpus/read-corpus.js';
import type { EvalInstance } from '../evaluation/eval-instance.js';
import { checkEvalConfig } from '../evaluation/eval-config.js';
import { evaluationDue } from '../evaluation/held-out/eval-schedule.js';
import type { HeldOutMetrics } from '../evaluation/held-out/held-out-metrics.js';
import { overlapPairs, type ComparedBug } from '../evaluation/held-out/train-eval-overlap.js';
import { runEval } from '../evaluation/run-eval.js';
import type { SandboxBackend } from '../sandbox/sandbox.js';
import { EngineError, isEngineError } from '../util/engine-error.js';
import type { SelfplayContext } from './selfplay-context.js';

/** `--eval-set` / `--eval-every` / `--eval-attempts`, the set already loaded and checked. */
export interface HeldOutPlan {
  /** The set's absolute path. */
  set: string;
  instances: EvalInstance[];
  /** Evaluate after every `every`-th step (and the last); undefined: the last step only. */
  every: number | undefined;
  /** Solver attempts per instance. */
  attempts: number;
}

/** Where a run keeps its held-out evaluations: `eval/step-<N>/` (an `ssr eval` dir each) and `eval/overlaps.json`. */
export const heldOutPaths = (out: string) => ({ root: join(out, 'eval'), step: (step: number) => join(out, 'eval', `step-${step}`), overlaps: join(out, 'eval', 'overlaps.json') });

/** Eval instances as train/eval hygiene compares them. */
export const comparedInstances = (instances: readonly EvalInstance[]): ComparedBug[] =>
  instances.map((instance) => ({ id: instance.instanceId, repo: instance.repo.id, commit: instance.repo.commit, bugInject: instance.artifact.bugInject }));

/**
 * Held-out tracking in self-play: after a due step's train call, the policy (now the trained
 * version) solves the held-out set as `ssr eval` solves it, into `eval/step-<N>/`. Nothing here
 * touches the run store or the sample writer, so no attempt of it can become a training sample.
 * Resumable like `ssr eval`: a step finished again after a kill grades only the attempts missing.
 */
export class HeldOutEval {
  constructor(
    private readonly plan: HeldOutPlan,
    private readonly run: { out: string; backend: SandboxBackend; steps: number; log: (line: string) => void },
  ) {}

  /**
   * Refuse a run dir whose earlier steps were evaluated on another set: one curve, one set.
   * @throws EngineError `usage` naming both sets.
   */
  checkEarlier(lines: readonly { heldOut?: HeldOutMetrics | undefined }[]): void {
    const other = lines.find((line) => line.heldOut && line.heldOut.set !== this.plan.set)?.heldOut;
    if (other) throw new EngineError('usage', `--eval-set ${this.plan.set}: this run's earlier steps were evaluated on ${other.set}; give that --eval-set to continue its held-out curve, or another --out`);
  }

  /** The step's evaluation, or undefined when the step is not due. */
  async evaluate(ctx: SelfplayContext, step: number): Promise<HeldOutMetrics | undefined> {
    if (!evaluationDue(step, this.plan.every, this.run.steps)) return undefined;
    const out = heldOutPaths(this.run.out).step(step);
    const policyVersion = ctx.policy.version;
    await this.claim(out, `${ctx.policy.name}@v${policyVersion}`);
    const log = (line: string) => this.run.log(`held-out eval after step ${step}: ${line}`);
    log(`${this.plan.instances.length} instance(s) × ${this.plan.attempts} attempt(s), policy v${policyVersion}`);
    const summary = await runEval({
      set: this.plan.set, instances: this.plan.instances, policy: ctx.policy, backend: this.run.backend, provider: ctx.provider, attempts: this.plan.attempts,
      concurrency: ctx.settings.lanes.solver, out, limits: ctx.settings.solverLimits, leakPolicy: ctx.settings.leakPolicy, seed: ctx.settings.seed, onLine: log,
      progress: (event) => event.fraction === undefined && log(`${event.stage}: ${event.message}`),
    });
    const overlaps = await this.overlaps(ctx);
    const { all } = summary;
    log(`solve rate ${all.solveRate === null ? '-' : all.solveRate.toFixed(3)} (${all.solved}/${all.attempts} attempts)${overlaps > 0 ? `, ${overlaps} train/eval overlap(s) so far (eval/overlaps.json)` : ''}`);
    return {
      set: this.plan.set, policyVersion, instances: summary.instances, invalid: all.invalid, notJudged: summary.notJudged, attempts: all.attempts, solved: all.solved,
      solveRate: all.solveRate, passAt1: all.passAt1, overlaps, dir: `eval/step-${step}`,
    };
  }

  /**
   * The step's eval dir for this policy version: attempts of another version (a trainer resumed
   * from an older checkpoint re-trains the step) are moved aside, never averaged in.
   */
  private async claim(out: string, policy: string): Promise<void> {
    try {
      await checkEvalConfig(out, { set: this.plan.set, policy });
    } catch (error) {
      if (!isEngineError(error) || error.code !== 'usage') throw error;
      const aside = `${out}.superseded-${Date.now()}`;
      await rename(out, aside);
      this.run.log(`held-out eval: ${out} held attempts of another policy version; moved to ${aside}`);
      await checkEvalConfig(out, { set: this.plan.set, policy });
    }
  }

  /** Train/eval pairs over the run's valid bugs so far (and a solve-only corpus's), written to eval/overlaps.json. */
  private async overlaps(ctx: SelfplayContext): Promise<number> {
    const train: ComparedBug[] = [];
    for (const dir of [this.run.out, ctx.settings.corpusDir]) {
      if (dir === null || !(await stat(join(dir, 'bugs')).catch(() => null))) continue;
      for (const bug of (await readCorpus(dir)).valid) train.push({ id: bug.id, repo: bug.metadata.repo, commit: bug.metadata.commit, bugInject: bug.artifact.bugInject });
    }
    const pairs = overlapPairs(train, comparedInstances(this.plan.instances));
    await writeJsonAtomic(heldOutPaths(this.run.out).overlaps, { set: this.plan.set, pairs });
    return pairs.length;
  }
}
