import type { Candidate, LineRange } from './mutation-operator.js';
import { listCandidates } from './mutate.js';

/**
 * The operators whose mutations can be undone by an operator of this list, cheapest guess first.
 * Every swap table is symmetric, `remove-not` undoes `negate-condition` and back, ±1 undoes ∓1,
 * and swapping arguments or branches twice restores them. Removals and emptied strings cannot be
 * undone from the mutated text alone, so they are not here.
 */
export const REPAIR_OPERATORS = [
  'comparison-swap',
  'boolean-swap',
  'arithmetic-swap',
  'augmented-assignment-swap',
  'remove-not',
  'negate-condition',
  'integer-off-by-one',
  'bound-off-by-one',
  'constant-change',
  'swap-arguments',
  'invert-if-else',
] as const;
export type RepairOperator = (typeof REPAIR_OPERATORS)[number];

export interface RepairOptions {
  /** A subset of {@link REPAIR_OPERATORS}; default all. */
  operators?: readonly RepairOperator[];
  /** Keep only the first `limit` candidates of the ranking. */
  limit?: number;
}

/**
 * Candidate edits that would undo a common operator mutation touching the given (suspicious)
 * lines, for a procedural Solver to try one by one. Ranked cheap-first: by operator (the order of
 * {@link REPAIR_OPERATORS}), then by edit size, then by position. Each distinct result text once.
 */
export function repairCandidates(source: string, lines: LineRange | readonly number[], options: RepairOptions = {}): Candidate[] {
  const wanted = Array.isArray(lines) ? lines : undefined;
  if (wanted?.length === 0) return [];
  const range = wanted ? { start: Math.min(...wanted), end: Math.max(...wanted) } : (lines as LineRange);
  const operators = options.operators ?? REPAIR_OPERATORS;
  const tier = (candidate: Candidate) => operators.indexOf(candidate.operator as RepairOperator);
  const size = (candidate: Candidate) => candidate.end - candidate.start + candidate.replacement.length;
  const ranked = listCandidates(source, { operators, lineRange: range })
    .filter((candidate) => !wanted || wanted.some((line) => line >= candidate.line && line <= candidate.endLine))
    .sort((a, b) => tier(a) - tier(b) || size(a) - size(b) || a.start - b.start);
  return options.limit === undefined ? ranked : ranked.slice(0, options.limit);
}
