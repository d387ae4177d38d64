import { languageOfPath, type SourceLanguage } from '../../../code/source-language.js';
import type { CandidateQuery } from '../../../mutation/candidate-query.js';
import { resolveOperators } from '../../../mutation/candidate-query.js';
import { applyCandidate, listCandidates, proposeCandidates } from '../../../mutation/mutate.js';
import type { Candidate, MutationKind } from '../../../mutation/mutation-operator.js';
import type { SeededRng } from '../../../util/seeded-rng.js';
import type { BugCandidate } from './bug-candidate.js';
import { lineEditBetween } from './line-edit.js';
import { doctestExampleLines } from '../../../code/python/doctest-examples.js';

function examplesOf(text: string): string {
  const lines = text.split('\n');
  return [...doctestExampleLines(text)].sort((a, b) => a - b).map((n) => lines[n - 1]).join('\n');
}

// The examples of the file last asked about: every candidate of a file compares against the same text.
let cached: { source: string; examples: string } | undefined;

/** Whether a mutation changes the doctest examples of its file (their lines, in order). */
function changesExamples(before: string, after: string): boolean {
  if (!before.includes('>>>')) return false;
  if (cached?.source !== before) cached = { source: before, examples: examplesOf(before) };
  return cached.examples !== examplesOf(after);
}

/**
 * How often each operator is drawn relative to the others. Removal favours emptying whole
 * function bodies and loops (method §7: "significant hunks"); operator mutations favour the
 * Stryker / SWE-smith classics over literal tweaks, which tests notice less often.
 */
const WEIGHTS: Record<string, number> = {
  'remove-function-body': 5, 'remove-loop': 3, 'remove-if-block': 3, 'remove-statement': 1,
  'comparison-swap': 3, 'boolean-swap': 2, 'negate-condition': 2, 'remove-not': 2, 'arithmetic-swap': 3,
  'augmented-assignment-swap': 2, 'integer-off-by-one': 2, 'bound-off-by-one': 3, 'swap-arguments': 2,
  'constant-change': 1, 'string-literal': 0.5, 'invert-if-else': 2, 'remove-else-branch': 2, 'remove-guard-clause': 2,
  // JS-only mistakes; a `js-` operator named like a Python one weighs the same (see weightOf).
  'js-logical-swap': 2, 'js-nullish-swap': 2, 'js-drop-await': 2, 'js-copied-array': 2, 'js-optional-chaining': 1,
  'js-this-binding': 1, 'js-loose-equality': 0.5,
};

function weightOf(operator: string): number {
  return WEIGHTS[operator] ?? WEIGHTS[operator.replace(/^js-/, '')] ?? 1;
}

/**
 * JS operators of kind `operator` that delete a hunk all the same (a branch, a guard): with the
 * removal operators they make the removal strategy on JS/TS code, whose registry has few removals.
 */
const JS_REMOVAL_LIKE: ReadonlySet<string> = new Set(['js-remove-guard-clause', 'js-remove-else-branch']);

/** The registry query of a strategy's mutations in a module of `language` (Python: by kind alone, as ever). */
function strategyQuery(kind: MutationKind, language: SourceLanguage): CandidateQuery {
  if (language === 'python' || kind !== 'removal') return { language, kinds: [kind] };
  return { language, operators: resolveOperators(undefined, language).filter((op) => op.kind === 'removal' || JS_REMOVAL_LIKE.has(op.name)) };
}

/**
 * Every catalogue mutation of `kind` in the given files (only on executed lines when coverage is
 * known), as `edit` calls, in a seeded order: an operator is drawn by weight, then one of its
 * sites at random, so the order mixes operators and files.
 */
export function mutationCandidates(
  sources: ReadonlyMap<string, string>,
  kind: MutationKind,
  coverage: ReadonlyMap<string, ReadonlySet<number>> | null,
  rng: SeededRng,
): BugCandidate[] {
  const groups = new Map<string, { file: string; candidate: Candidate; check?: () => boolean }[]>();
  for (const [file, source] of sources) {
    const covered = coverage?.get(file);
    if (coverage && !covered) continue;
    const language = languageOfPath(file) ?? 'python';
    const query = { ...strategyQuery(kind, language), ...(covered ? { withinLines: [...covered] } : {}) };
    for (const { candidate, check } of candidatesOf(source, language, query)) {
      const group = groups.get(candidate.operator) ?? [];
      group.push({ file, candidate, ...(check ? { check } : {}) });
      groups.set(candidate.operator, group);
    }
  }
  const pools = [...groups.entries()].map(([operator, items]) => ({ operator, items: rng.shuffle(items), weight: weightOf(operator) }));
  const out: BugCandidate[] = [];
  while (pools.length > 0) {
    const total = pools.reduce((sum, pool) => sum + pool.weight, 0);
    let draw = rng.next() * total;
    let index = pools.findIndex((pool) => (draw -= pool.weight) < 0);
    if (index < 0) index = pools.length - 1;
    const pool = pools[index]!;
    const { file, candidate, check } = pool.items.pop()!;
    if (pool.items.length === 0) pools.splice(index, 1);
    const source = sources.get(file)!;
    const mutated = applyCandidate(source, candidate);
    const edit = lineEditBetween(source, mutated);
    // Doctest examples are tests: a change that edits or deletes one is no bug in the code. Only
    // Python has them (a JS file with `>>>`, an unsigned shift, would be parsed as Python per candidate).
    if (!edit || (languageOfPath(file) === 'python' && changesExamples(source, mutated))) continue;
    out.push({
      file,
      record: {
        operator: candidate.operator,
        kind: candidate.kind,
        file,
        line: candidate.line,
        endLine: candidate.endLine,
        description: candidate.description,
      },
      apply: { type: 'edit', edit },
      ...(check ? { check } : {}),
      rationale: `Try a ${candidate.kind === 'removal' ? 'removal' : 'mutation'} in ${file} line ${candidate.line} (${candidate.operator}).`,
    });
  }
  return out;
}

/**
 * A module's candidates: Python's checked up front (its check parses the enclosing statement
 * alone), a JS/TS module's proposals with their check left for when one is tried (that check
 * re-parses the module, seconds for all of a large one's, of which a search tries a few).
 */
function candidatesOf(source: string, language: SourceLanguage, query: CandidateQuery): { candidate: Candidate; check?: () => boolean }[] {
  if (language === 'python') return listCandidates(source, query).map((candidate) => ({ candidate }));
  const { proposals, isValid } = proposeCandidates(source, query);
  return proposals.map((candidate) => ({ candidate, check: () => isValid(candidate) }));
}
