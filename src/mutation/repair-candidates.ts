import type { SourceLanguage } from '../code/source-language.js';
import type { Candidate, LineRange, MutationOperator } from './mutation-operator.js';
import { listCandidates } from './mutate.js';
import { boundOffByOneForRepair } from './operators/bound-off-by-one.js';
import { negateConditionForRepair } from './operators/negate-condition.js';

/**
 * The operators whose mutations can be undone by an operator of this list (as
 * {@link repairCandidates} runs them), cheapest guess first: every swap table is symmetric,
 * swapping arguments or branches twice restores them, ±1 on a literal undoes ∓1, `remove-not`
 * undoes `negate-condition`, and the repair variants of two operators ({@link REPAIR_VARIANTS})
 * undo the rest: `negate-condition` puts back a `not` that `remove-not` dropped from any operand,
 * and `bound-off-by-one` adds `± 1` back to any index it dropped one from. The original comes back
 * to the letter, save where the mutated text cannot tell how it was spelled: a dropped
 * `not a < b` comes back as `not (a < b)`, a dropped `i+1` as `i + 1` (the same code), and of
 * `not not x` only the effect (`x`). Removals and emptied strings cannot be undone from the mutated
 * text alone, so they are not here. test/unit/mutation/repair-inverts-mutations.test.ts checks
 * this on real code.
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
/**
 * The JavaScript / TypeScript counterpart of {@link REPAIR_OPERATORS}, cheapest guess first. Every
 * JS swap table is symmetric, `js-swap-arguments` twice restores, ±1 undoes ∓1 and
 * `js-bound-off-by-one` drops the `± 1` it adds; `js-remove-not` undoes `js-negate-condition`
 * (leaving redundant parentheses: `!(a < b)` comes back as `(a < b)`) and `js-negate-condition`
 * undoes `js-remove-not`; `js-optional-chaining` both adds and drops `?.`. Not here, as they have
 * no inverse in the catalogue: `js-drop-await`, `js-copied-array`, `js-this-binding` and the
 * removals. test/unit/mutation/js-repair-candidates.test.ts checks this on the JS fixtures.
 */
export const JS_REPAIR_OPERATORS = [
  'js-comparison-swap',
  'js-loose-equality',
  'js-logical-swap',
  'js-nullish-swap',
  'js-arithmetic-swap',
  'js-remove-not',
  'js-negate-condition',
  'js-integer-off-by-one',
  'js-bound-off-by-one',
  'js-optional-chaining',
  'js-swap-arguments',
] as const;
export type RepairOperator = (typeof REPAIR_OPERATORS)[number] | (typeof JS_REPAIR_OPERATORS)[number];

/** The repair catalogue of a module's language, in its cheap-first order. */
export function repairOperatorsFor(language: SourceLanguage): readonly RepairOperator[] {
  return language === 'python' ? REPAIR_OPERATORS : JS_REPAIR_OPERATORS;
}

/**
 * Operators that repair with more edits than they inject: same name, more permissive. The Injector
 * draws from the registry and never sees these (their extra edits would be weak or junk bugs).
 */
const REPAIR_VARIANTS: Partial<Record<string, MutationOperator>> = {
  'negate-condition': negateConditionForRepair,
  'bound-off-by-one': boundOffByOneForRepair,
};

export interface RepairOptions {
  /** The module's language (see `languageOfPath`); default `python`. */
  language?: SourceLanguage;
  /** A subset of the language's catalogue ({@link repairOperatorsFor}); default all. */
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
  const language = options.language ?? 'python';
  const operators = options.operators ?? repairOperatorsFor(language);
  const tier = (candidate: Candidate) => operators.indexOf(candidate.operator as RepairOperator);
  const size = (candidate: Candidate) => candidate.end - candidate.start + candidate.replacement.length;
  const ranked = listCandidates(source, { language, operators: operators.map((name) => REPAIR_VARIANTS[name] ?? name), lineRange: range })
    .filter((candidate) => !wanted || wanted.some((line) => line >= candidate.line && line <= candidate.endLine))
    .sort((a, b) => tier(a) - tier(b) || size(a) - size(b) || a.start - b.start);
  return options.limit === undefined ? ranked : ranked.slice(0, options.limit);
}
