import { resolve } from 'node:path';
import type { BugMeasure } from './bug-measure.js';
import { readRealismSet, readSolverOutcomes } from './read-realism-input.js';
import { realismTables, type RealismRow } from './realism-table.js';

/** What `ssr realism` reads: two sets, and optionally an `ssr eval` dir of each. */
export interface RealismInput {
  synthetic: string;
  real: string;
  syntheticEval?: string;
  realEval?: string;
}

/**
 * `ssr realism --json`: synthetic and mined bugs measured the same way, per repo and over all;
 * documented in docs/real-bugs.md ("Realism"). Fields are only ever added.
 */
export interface RealismSummary {
  synthetic: { set: string; eval: string | null };
  real: { set: string; eval: string | null };
  /** Repos holding bugs of both origins: only their rows compare like with like. */
  sharedRepos: string[];
  byRepo: RealismRow[];
  all: RealismRow;
  /** Every bug measured, synthetic then real. */
  bugs: BugMeasure[];
  /** What a reader should know before comparing (no shared repo, different Solver policies). */
  notes: string[];
}

/** Read both sets (and evals) and build the side-by-side summary. */
export async function realismSummary(input: RealismInput): Promise<RealismSummary> {
  const [synthetic, real] = await Promise.all([readRealismSet(resolve(input.synthetic), 'synthetic'), readRealismSet(resolve(input.real), 'real')]);
  const syntheticSolver = input.syntheticEval === undefined ? undefined : await readSolverOutcomes(resolve(input.syntheticEval), '--synthetic-eval', synthetic);
  const realSolver = input.realEval === undefined ? undefined : await readSolverOutcomes(resolve(input.realEval), '--real-eval', real);
  const bugs = [...synthetic, ...real];
  const tables = realismTables(bugs, { ...(syntheticSolver ? { synthetic: syntheticSolver } : {}), ...(realSolver ? { real: realSolver } : {}) });
  const realRepos = new Set(real.map((bug) => bug.repo));
  const sharedRepos = [...new Set(synthetic.map((bug) => bug.repo))].filter((repo) => realRepos.has(repo)).sort();
  const notes: string[] = [];
  if (synthetic.length === 0) notes.push(`--synthetic ${input.synthetic} holds no valid bug`);
  if (real.length === 0) notes.push(`--real ${input.real} holds no valid bug`);
  if (synthetic.length > 0 && real.length > 0 && sharedRepos.length === 0) notes.push('no repo holds bugs of both origins: the sides come from different code');
  if (syntheticSolver && realSolver && syntheticSolver.policy !== realSolver.policy) {
    notes.push(`the solve rates come from different policies (${syntheticSolver.policy} on synthetic, ${realSolver.policy} on real)`);
  }
  return {
    synthetic: { set: resolve(input.synthetic), eval: input.syntheticEval === undefined ? null : resolve(input.syntheticEval) },
    real: { set: resolve(input.real), eval: input.realEval === undefined ? null : resolve(input.realEval) },
    sharedRepos, ...tables, bugs, notes,
  };
}
