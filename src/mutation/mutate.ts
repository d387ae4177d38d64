import { createHash } from 'node:crypto';
import { hasSyntaxErrors } from '../code/python/parse-python.js';
import { parseSource } from '../code/parse-source.js';
import type { SourceLanguage } from '../code/source-language.js';
import { EngineError } from '../util/engine-error.js';
import type { SeededRng } from '../util/seeded-rng.js';
import { applyCandidate } from './apply-candidates.js';
import type { CandidateQuery } from './candidate-query.js';
import { mutationChecker } from './check-mutation.js';
import { enumerateCandidates, type Proposal } from './enumerate-candidates.js';
import type { Candidate } from './mutation-operator.js';

export { applyCandidate, applyCandidates } from './apply-candidates.js';

/**
 * Every valid mutation of a module the query allows, in a stable order (by position, then
 * operator). Valid: the mutated module parses and gains no comment. Two edits that yield the same
 * text count once. A module that does not parse to begin with has no candidates.
 */
export function listCandidates(source: string, query: CandidateQuery = {}): Candidate[] {
  const { proposals, isValid } = proposeCandidates(source, query);
  return proposals.filter((candidate) => isValid(candidate));
}

/** A module's unchecked proposals and the check that keeps the valid ones ({@link proposeCandidates}). */
export interface ProposedCandidates {
  /** Every proposal of the query, in listCandidates' order, before the check. */
  proposals: Candidate[];
  /** listCandidates' rule for one proposal: it parses, gains no comment, and its text was not valid before (the first asked keeps a shared text). */
  isValid(candidate: Candidate): boolean;
}

/**
 * listCandidates in two halves, for a caller that tries a few of many proposals: checking every
 * proposal re-parses a JS/TS module once per proposal (2 s for numeral.js's 1,225), so the check
 * is left to the proposals actually tried. No proposals for a module that does not parse.
 */
export function proposeCandidates(source: string, query: CandidateQuery = {}): ProposedCandidates {
  const language = query.language ?? 'python';
  const tree = parseSource(source, language);
  if (unparsable(tree, language)) return { proposals: [], isValid: () => false };
  const check = mutationChecker(source, tree, language);
  const seenTexts = new Set<string>();
  return {
    proposals: enumerateCandidates(source, tree, query).map((proposal) => proposal.candidate),
    isValid(candidate) {
      const digest = createHash('sha1').update(applyCandidate(source, candidate)).digest('hex');
      if (seenTexts.has(digest) || !check([candidate])) return false;
      seenTexts.add(digest);
      return true;
    },
  };
}

/** Options of {@link pickCandidates}. */
export interface PickOptions extends CandidateQuery {
  /** How many mutations to pick; fewer come back when the module offers fewer. */
  count: number;
}

/**
 * Draw up to `count` mutations that can all be applied together: their lines do not overlap and
 * the module with all of them applied is valid. An operator is drawn first, then one of its
 * sites, so operators with many sites (integer literals) do not crowd out the rest. Same source,
 * query and seed: same picks. Returned in source order.
 */
export function pickCandidates(source: string, rng: SeededRng, options: PickOptions): Candidate[] {
  if (!Number.isSafeInteger(options.count) || options.count < 1) {
    throw new EngineError('usage', `pickCandidates needs a positive integer count, got ${options.count}`);
  }
  const language = options.language ?? 'python';
  const tree = parseSource(source, language);
  if (unparsable(tree, language)) return [];
  const isValid = mutationChecker(source, tree, language);
  const groups = groupByOperator(enumerateCandidates(source, tree, options));
  const chosen: Proposal[] = [];
  while (chosen.length < options.count && groups.length > 0) {
    const groupIndex = rng.int(groups.length);
    const group = groups[groupIndex]!;
    const [proposal] = group.splice(rng.int(group.length), 1);
    if (group.length === 0) groups.splice(groupIndex, 1);
    if (!proposal || chosen.some((other) => linesOverlap(other, proposal))) continue;
    const together = [...chosen, proposal];
    if (isValid(together.map((p) => p.candidate))) chosen.push(proposal);
  }
  return chosen.map((p) => p.candidate).sort((a, b) => a.start - b.start);
}

function unparsable(tree: ReturnType<typeof parseSource>, language: SourceLanguage): boolean {
  return language === 'python' ? hasSyntaxErrors(tree) : tree.rootNode.hasError;
}

function groupByOperator(proposals: Proposal[]): Proposal[][] {
  const groups = new Map<string, Proposal[]>();
  for (const proposal of proposals) {
    const group = groups.get(proposal.candidate.operator) ?? [];
    group.push(proposal);
    groups.set(proposal.candidate.operator, group);
  }
  return [...groups.values()];
}

function linesOverlap(a: Proposal, b: Proposal): boolean {
  return a.firstLine <= b.candidate.endLine && b.firstLine <= a.candidate.endLine;
}
