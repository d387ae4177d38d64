import { evalTables, type InstanceOutcome } from '../evaluation/eval-table.js';
import type { BugMeasure, BugOrigin } from './bug-measure.js';
import { median } from '../util/median.js';

/** Mean, median and maximum of one measure over a side's bugs (null without a bug). */
export interface Spread {
  mean: number | null;
  median: number | null;
  max: number | null;
}

/** A Solver's figures on one side, from `ssr eval`'s graded attempts of these bugs. */
export interface SolverFigures {
  /** The policy that made the attempts (eval.json's `policy.name`). */
  policy: string;
  /** Bugs of the side with at least one scored attempt (the rest were never evaluated or were invalid there). */
  evaluated: number;
  attempts: number;
  solved: number;
  /** Solved attempts / scored attempts; pass@1 is its mean per bug. Null without a scored attempt. */
  solveRate: number | null;
  passAt1: number | null;
}

/** One side (synthetic or real) of one repo, or of every repo. */
export interface RealismSide {
  bugs: number;
  files: Spread;
  hunks: Spread;
  lines: Spread;
  failingTests: Spread;
  failingTestFiles: Spread;
  /** Bugs per recorded kind, and per diff shape kind (a bug counts once for each of its shape kinds). */
  kinds: Record<string, number>;
  shapes: Record<string, number>;
  /**
   * Bugs whose code change is also a bug of the other side in the same repo (same {@link changeKey}):
   * a synthetic bug that re-creates a mined one, e.g. the history strategy reverting its fix.
   */
  sameChangeAsOther: number;
  /** Null when no eval of this side was given. */
  solver: SolverFigures | null;
}

/** The two sides of one repo (`repo: 'all'` for every repo together). */
export interface RealismRow {
  repo: string;
  synthetic: RealismSide;
  real: RealismSide;
}

/** An eval's outcomes (eval.json) with the policy that made them. */
export interface SolverOutcomes {
  policy: string;
  outcomes: readonly InstanceOutcome[];
}

const round = (n: number): number => Math.round(n * 100) / 100;

/** The spread of some numbers, rounded to 2 decimals. Pure. */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { mean: null, median: null, max: null };
  return { mean: round(values.reduce((a, b) => a + b, 0) / values.length), median: round(median(values)), max: Math.max(...values) };
}

function counts(keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of [...keys].sort()) out[key] = (out[key] ?? 0) + 1;
  return out;
}

/** `ssr eval` names a bug dir's instance `<repo>__<bug id>`. */
export const instanceIdOf = (measure: Pick<BugMeasure, 'repo' | 'bugId'>): string => `${measure.repo}__${measure.bugId}`;

function solverOn(bugs: readonly BugMeasure[], solver: SolverOutcomes | undefined): SolverFigures | null {
  if (!solver) return null;
  const ids = new Set(bugs.map(instanceIdOf));
  const outcomes = solver.outcomes.filter((o) => ids.has(o.instanceId));
  // pass@1 only: evals with different k are compared on the same footing.
  const { all } = evalTables([...outcomes], 1);
  return {
    policy: solver.policy, evaluated: outcomes.filter((o) => o.status === 'scored' && o.scored > 0).length,
    attempts: all.attempts, solved: all.solved, solveRate: all.solveRate, passAt1: all.passAt1,
  };
}

const changeOf = (bug: BugMeasure): string | null => (bug.change === null ? null : `${bug.repo}:${bug.change}`);

/** One side's figures over these bugs; `other` is the other side's bugs, for {@link RealismSide.sameChangeAsOther}. Pure. */
export function realismSide(bugs: readonly BugMeasure[], solver?: SolverOutcomes, other: readonly BugMeasure[] = []): RealismSide {
  const otherChanges = new Set(other.map(changeOf).filter((key) => key !== null));
  const of = (key: 'files' | 'hunks' | 'lines' | 'failingTests' | 'failingTestFiles') => spread(bugs.map((bug) => bug[key]));
  return {
    bugs: bugs.length, files: of('files'), hunks: of('hunks'), lines: of('lines'), failingTests: of('failingTests'), failingTestFiles: of('failingTestFiles'),
    kinds: counts(bugs.map((bug) => bug.kind)), shapes: counts(bugs.flatMap((bug) => bug.shape)),
    sameChangeAsOther: bugs.filter((bug) => otherChanges.has(changeOf(bug) ?? '')).length, solver: solverOn(bugs, solver),
  };
}

/**
 * The side-by-side rows: one per repo that holds bugs of either origin (sorted by id), then `all`.
 * A repo with bugs of one origin only still gets its row (the other side has 0 bugs). Pure.
 */
export function realismTables(
  bugs: readonly BugMeasure[],
  solvers: Partial<Record<BugOrigin, SolverOutcomes>> = {},
): { byRepo: RealismRow[]; all: RealismRow } {
  const row = (repo: string, members: readonly BugMeasure[]): RealismRow => {
    const synthetic = members.filter((bug) => bug.origin === 'synthetic');
    const real = members.filter((bug) => bug.origin === 'real');
    return { repo, synthetic: realismSide(synthetic, solvers.synthetic, real), real: realismSide(real, solvers.real, synthetic) };
  };
  const repos = [...new Set(bugs.map((bug) => bug.repo))].sort();
  return { byRepo: repos.map((repo) => row(repo, bugs.filter((bug) => bug.repo === repo))), all: row('all', bugs) };
}
