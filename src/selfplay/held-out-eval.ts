import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../corpus/atomic-write.js';
import type { ResolvedRepo } from '../config/resolve-repo.js';
import { readJsonFile } from '../corpus/read-json-file.js';
import type { EvalInstance } from '../evaluation/eval-instance.js';
import { checkEvalConfig } from '../evaluation/eval-config.js';
import { evaluationDue } from '../evaluation/held-out/eval-schedule.js';
import { HELD_OUT_AT_START, heldOutMetricsSchema, type HeldOutMetrics } from '../evaluation/held-out/held-out-metrics.js';
import { TrainingBugIndex } from '../evaluation/held-out/training-bugs.js';
import type { ComparedBug } from '../evaluation/held-out/train-eval-overlap.js';
import { runEval } from '../evaluation/run-eval.js';
import type { SandboxBackend, SandboxTemplate } from '../sandbox/sandbox.js';
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
  /** Evaluate the starting policy before step 1 too (`--eval-every` without `--no-eval-at-start`), into `eval/step-0/`. */
  atStart: boolean;
}

/** Where a run keeps its held-out evaluations: `eval/step-<N>/` (an `ssr eval` dir each) and `eval/overlaps.json`. */
export const heldOutPaths = (out: string) => ({
  root: join(out, 'eval'),
  step: (step: number) => join(out, 'eval', `step-${step}`),
  overlaps: join(out, 'eval', 'overlaps.json'),
  /** The step-0 evaluation's `heldOut` (no metrics line carries it): its presence is what marks it done. */
  start: join(out, HELD_OUT_AT_START),
});

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
  private readonly training: TrainingBugIndex;

  constructor(
    private readonly plan: HeldOutPlan,
    private readonly run: {
      out: string; backend: SandboxBackend; steps: number; log: (line: string) => void;
      /** Instances' templates on `--docker-host` engines (the fleet's); default: built on `backend`. */
      prepare?: (repo: ResolvedRepo) => Promise<SandboxTemplate>;
    },
  ) {
    // The set is loaded once (at start, by the CLI) and compared once: each evaluation reads only the training bugs new since the last.
    this.training = new TrainingBugIndex(comparedInstances(plan.instances));
  }

  /**
   * Refuse a run dir whose earlier steps were evaluated on another set: one curve, one set.
   * @throws EngineError `usage` naming both sets.
   */
  checkEarlier(lines: readonly { heldOut?: HeldOutMetrics | undefined }[]): void {
    const other = lines.find((line) => line.heldOut && line.heldOut.set !== this.plan.set)?.heldOut;
    if (other) throw new EngineError('usage', `--eval-set ${this.plan.set}: this run's earlier steps were evaluated on ${other.set}; give that --eval-set to continue its held-out curve, or another --out`);
  }

  /**
   * The starting policy's evaluation (step 0), before step 1 samples: run once; a resumed run reads
   * it back from `eval/step-0/held-out.json` instead of redoing it, and a run already past step 1
   * without one skips it (its starting policy is gone). Undefined when not asked for or skipped.
   */
  async atStart(ctx: SelfplayContext): Promise<HeldOutMetrics | undefined> {
    if (!this.plan.atStart) return undefined;
    const path = heldOutPaths(this.run.out).start;
    const done = await readJsonFile(path, heldOutMetricsSchema, { optional: true });
    if (done !== null) return done;
    if (ctx.store.hasMetrics(1)) {
      this.run.log('held-out eval before step 1: skipped, the run is past step 1 (its starting policy is no longer the one being trained)');
      return undefined;
    }
    const metrics = await this.evaluateAt(ctx, 0, 'before step 1');
    await writeJsonAtomic(path, metrics);
    return metrics;
  }

  /** The step's evaluation, or undefined when the step is not due. */
  async evaluate(ctx: SelfplayContext, step: number): Promise<HeldOutMetrics | undefined> {
    if (!evaluationDue(step, this.plan.every, this.run.steps)) return undefined;
    return this.evaluateAt(ctx, step, `after step ${step}`);
  }

  private async evaluateAt(ctx: SelfplayContext, step: number, when: string): Promise<HeldOutMetrics> {
    const out = heldOutPaths(this.run.out).step(step);
    const policyVersion = ctx.policy.version;
    await this.claim(out, `${ctx.policy.name}@v${policyVersion}`);
    const log = (line: string) => this.run.log(`held-out eval ${when}: ${line}`);
    log(`${this.plan.instances.length} instance(s) × ${this.plan.attempts} attempt(s), policy v${policyVersion}`);
    const summary = await runEval({
      set: this.plan.set, instances: this.plan.instances, policy: ctx.policy, backend: this.run.backend, provider: ctx.provider, attempts: this.plan.attempts,
      concurrency: ctx.settings.lanes.solver, out, limits: ctx.settings.solverLimits, leakPolicy: ctx.settings.leakPolicy, seed: ctx.settings.seed, onLine: log,
      progress: (event) => event.fraction === undefined && log(`${event.stage}: ${event.message}`),
      ...(this.run.prepare ? { prepare: this.run.prepare } : {}),
    });
    const overlaps = await this.overlaps(ctx);
    const { all } = summary;
    log(`solve rate ${all.solveRate === null ? '-' : all.solveRate.toFixed(3)} (${all.solved}/${all.attempts} attempts)${overlaps > 0 ? `, ${overlaps} train/eval overlap(s) so far (eval/overlaps.json)` : ''}`);
    return {
      set: this.plan.set, policyVersion, instances: summary.instances, invalid: all.invalid, notJudged: summary.notJudged, attempts: all.attempts, solved: all.solved,
      solveRate: all.solveRate, passAt1: all.passAt1, overlaps, dir: `eval/step-${step}`, retried: summary.retried, discarded: summary.discarded,
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
    const pairs = await this.training.refresh([this.run.out, ...(ctx.settings.corpusDir === null ? [] : [ctx.settings.corpusDir])]);
    await writeJsonAtomic(heldOutPaths(this.run.out).overlaps, { set: this.plan.set, pairs });
    return pairs.length;
  }
}
