import { extractJsEntities } from '../code/js/entities.js';
import { extractEntities } from '../code/python/entities.js';
import type { PyTree } from '../code/python/parse-python.js';
import type { SourceLanguage } from '../code/source-language.js';
import { EngineError } from '../util/engine-error.js';
import type { Candidate, LineRange, MutationKind, MutationOperator } from './mutation-operator.js';
import { MUTATION_OPERATORS } from './registry.js';

/** Which candidates to consider. Every filter given must hold. */
export interface CandidateQuery {
  /** The module's language (see `languageOfPath`); default `python`. Only its operators are used. */
  language?: SourceLanguage;
  /** Registry names or operator objects; default: the whole registry. */
  operators?: readonly (string | MutationOperator)[];
  kinds?: readonly MutationKind[];
  /** Keep candidates whose replaced text overlaps these lines (e.g. suspicious lines). */
  lineRange?: LineRange;
  /** Keep candidates whose anchor line ({@link Candidate.line}) is one of these (e.g. covered lines). */
  withinLines?: readonly number[] | LineRange;
  /** Qualified names (`Class.method`): keep candidates that lie inside one of these entities. */
  entities?: readonly string[];
}

/**
 * Resolve registry names; an unknown name is a usage error that lists the known ones. Without a
 * list: every operator of the language; a named operator of another language is a usage error.
 */
export function resolveOperators(operators: CandidateQuery['operators'], language: SourceLanguage = 'python'): MutationOperator[] {
  if (!operators) return MUTATION_OPERATORS.filter((operator) => operator.languages.includes(language));
  const resolved = operators.map((entry) => {
    if (typeof entry !== 'string') return entry;
    const found = MUTATION_OPERATORS.find((operator) => operator.name === entry);
    if (!found) {
      throw new EngineError('usage', `unknown mutation operator "${entry}"; known: ${MUTATION_OPERATORS.map((o) => o.name).join(', ')}`);
    }
    return found;
  });
  const foreign = resolved.find((operator) => !operator.languages.includes(language));
  if (foreign) throw new EngineError('usage', `mutation operator "${foreign.name}" applies to ${foreign.languages.join(', ')}, not ${language}`);
  return resolved;
}

/** A predicate for the line, kind and entity filters of a query (operators are resolved apart). */
export function candidateFilter(tree: PyTree, query: CandidateQuery): (candidate: Candidate, firstLine: number) => boolean {
  const { kinds, lineRange, withinLines } = query;
  const within = Array.isArray(withinLines) ? new Set(withinLines) : undefined;
  const spans = query.entities ? entitySpans(tree, query.entities, query.language) : undefined;
  return (candidate, firstLine) => {
    if (kinds && !kinds.includes(candidate.kind)) return false;
    if (lineRange && (candidate.endLine < lineRange.start || firstLine > lineRange.end)) return false;
    if (within && !within.has(candidate.line)) return false;
    if (withinLines && !within) {
      const range = withinLines as LineRange;
      if (candidate.line < range.start || candidate.line > range.end) return false;
    }
    return !spans || spans.some((span) => firstLine >= span.start && candidate.endLine <= span.end);
  };
}

/** The line spans of the named entities of a module of `language` (default Python); an unknown name is a usage error. */
export function entitySpans(tree: PyTree, names: readonly string[], language: SourceLanguage = 'python'): LineRange[] {
  const entities = language === 'python' ? extractEntities(tree) : extractJsEntities(tree);
  return names.map((name) => {
    const entity = entities.find((e) => e.qualifiedName === name);
    if (!entity) throw new EngineError('usage', `no function, method or class named "${name}" in this module`);
    return { start: entity.startLine, end: entity.endLine };
  });
}
