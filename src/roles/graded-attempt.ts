import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exitEarnsReward, type ExitStatus } from '../agent/agent-exit.js';
import type { AgentLimits } from '../agent/agent-limits.js';
import { leakPenalty, type LeakFlag, type LeakPolicy } from '../agent/leak-flag.js';
import type { BugArtifact } from '../artifact/bug-artifact.js';
import type { TestRunner } from '../config/repos-schema.js';
import type { Policy } from '../policy/policy.js';
import type { SandboxProvider, SandboxTemplate } from '../sandbox/sandbox.js';
import { isEngineError } from '../util/engine-error.js';
import { seededRng } from '../util/seeded-rng.js';
import { gradeSolution, type SolverGrade } from './grade-solution.js';
import { runSolverEpisode } from './solver-episode.js';

/** One graded attempt as `ssr solve --json` and `ssr eval` record it; `reward` is null when it was discarded (infrastructure). */
export interface AttemptLine {
  attempt: number;
  reward: 1 | -1 | null;
  exitStatus: ExitStatus;
  turns: number;
  reason: string;
  /** The grade's code (`solved`, `tests-fail`, …) when the patch was graded. */
  code?: SolverGrade['code'];
  /** What the attempt reached for that it must not (see scanLeaks). */
  leaks: LeakFlag[];
}

/** What every attempt on one bug shares. */
export interface AttemptContext {
  policy: Policy;
  template: SandboxTemplate;
  provider: SandboxProvider;
  artifact: BugArtifact;
  priorPatch?: string;
  /** The repo's runner, named in a JS repo's Solver prompt. */
  testRunner?: TestRunner;
  originalPassing: string[];
  /** Validation's O run was guarded: grading holds every attempt to it. */
  originalGuarded: boolean;
  /** What the guard reported on O's own runs: attempts may repeat exactly these. */
  toleratedTampering?: readonly string[];
  testTimeoutMs: number;
  limits: Partial<AgentLimits>;
  leakPolicy: LeakPolicy;
  baseSeed: number;
  /** Attempt n's files go to `<dir>/attempt-<n>/`: trajectory.jsonl, pred_patch.diff, grade.json, leaks.json. */
  dir: string;
}

/**
 * Run one Solver episode on the bug and grade it exactly as self-play does (gradeSolution, with
 * the leak policy's penalty first); infrastructure failures become a discarded attempt, never a
 * reward. Attempt n samples with its own seed, forked from the base seed.
 */
export async function runGradedAttempt(ctx: AttemptContext, attempt: number, bugId: string): Promise<AttemptLine> {
  const dir = join(ctx.dir, `attempt-${attempt}`);
  await mkdir(dir, { recursive: true });
  const seed = seededRng(ctx.baseSeed).fork(`attempt-${attempt}`).int(2 ** 31);
  const episodeId = `solve-${bugId}-${attempt}-${randomUUID().slice(0, 8)}`;
  let line: AttemptLine;
  let grade: SolverGrade | null = null;
  try {
    const episode = await runSolverEpisode({
      policy: ctx.policy, template: ctx.template, provider: ctx.provider, artifact: ctx.artifact, priorPatch: ctx.priorPatch, testRunner: ctx.testRunner,
      limits: ctx.limits, episodeId, seed, trajectoryPath: join(dir, 'trajectory.jsonl'),
    });
    const { exit, patch, leaks } = episode;
    if (patch !== null) await writeFile(join(dir, 'pred_patch.diff'), patch);
    const base = { attempt, exitStatus: exit.exitStatus, turns: exit.turns, leaks };
    const penalty = leakPenalty(ctx.leakPolicy, leaks);
    if (!exitEarnsReward(exit.exitStatus)) {
      line = { ...base, reward: null, reason: `discarded: the episode ended with ${exit.exitStatus}${exit.error ? ` (${exit.error.message})` : ''}` };
    } else if (penalty !== null) {
      line = { ...base, reward: -1, reason: penalty };
    } else {
      grade = await gradeSolution({ ...ctx, patch });
      line = { ...base, reward: grade.reward, reason: grade.reason, code: grade.code };
    }
  } catch (error) {
    if (!isEngineError(error)) throw error;
    line = { attempt, reward: null, exitStatus: 'infrastructure-error', turns: 0, reason: `discarded: ${error.message} [${error.code}]`, leaks: [] };
  }
  const verdict = grade ?? (line.reward === null ? { discarded: true, reason: line.reason } : { reward: line.reward, reason: line.reason });
  await writeFile(join(dir, 'grade.json'), `${JSON.stringify(verdict, null, 2)}\n`);
  await writeFile(join(dir, 'leaks.json'), `${JSON.stringify(line.leaks, null, 2)}\n`);
  return line;
}
