import type { PyTree } from '../code/python/parse-python.js';
import { candidateFilter, entitySpans, resolveOperators, type CandidateQuery } from './candidate-query.js';
import type { Candidate, LineRange } from './mutation-operator.js';
import { isJsExempt } from './js-syntax.js';
import { isExempt } from './python-syntax.js';

/** A candidate before the parse check, with the first line its replaced text touches. */
export interface Proposal {
  candidate: Candidate;
  firstLine: number;
}

/**
 * Every proposal of the queried operators that passes the query's filters, unchecked: one per
 * distinct edit (the earlier operator keeps a shared edit), sorted by position, then operator
 * order, then the operator's own order, so the same source and query always give the same list.
 */
export function enumerateCandidates(source: string, tree: PyTree, query: CandidateQuery): Proposal[] {
  const python = (query.language ?? 'python') === 'python';
  const operators = resolveOperators(query.operators, query.language);
  const keep = candidateFilter(tree, query);
  const lineOf = lineIndex(source);
  const types = [...new Set(operators.flatMap((operator) => operator.appliesTo.nodeTypes))];
  const rows = searchRows(tree, query);
  const nodes = (rows
    ? tree.rootNode.descendantsOfType(types, { row: rows.from, column: 0 }, { row: rows.to + 1, column: 0 })
    : tree.rootNode.descendantsOfType(types)
  ).filter((node) => !(python ? isExempt(node) : isJsExempt(node)));
  const seen = new Set<string>();
  const ranked: { proposal: Proposal; order: number[] }[] = [];
  operators.forEach((operator, operatorIndex) => {
    const { nodeTypes, minLines = 1, maxLines = Infinity } = operator.appliesTo;
    for (const node of nodes) {
      const lines = node.endPosition.row - node.startPosition.row + 1;
      if (!nodeTypes.includes(node.type) || lines < minLines || lines > maxLines) continue;
      operator.candidates(node, source).forEach((edit, editIndex) => {
        const key = `${edit.start}:${edit.end}:${edit.replacement}`;
        if (seen.has(key)) return;
        const firstLine = lineOf(edit.start);
        const candidate: Candidate = {
          operator: operator.name,
          kind: operator.kind,
          ...edit,
          line: Math.max(lineOf(firstCode(source, edit.start, edit.end, python ? '#' : '//')), lineOf(node.startIndex)),
          endLine: lineOf(Math.max(edit.start, edit.end - 1)),
        };
        // Filter before deduplicating, so an edit that an excluded operator also proposes survives.
        if (!keep(candidate, firstLine)) return;
        seen.add(key);
        ranked.push({ proposal: { candidate, firstLine }, order: [edit.start, edit.end, operatorIndex, node.startIndex, editIndex] });
      });
    }
  });
  ranked.sort((a, b) => compareTuples(a.order, b.order));
  return ranked.map((entry) => entry.proposal);
}

/**
 * 0-based rows that hold every candidate the line filters can keep, so a query about a few lines
 * of a large module visits only the nodes there (tree-sitter returns those that intersect).
 */
function searchRows(tree: PyTree, query: CandidateQuery): { from: number; to: number } | undefined {
  const ranges: LineRange[] = [];
  if (query.lineRange) ranges.push(query.lineRange);
  const within = query.withinLines;
  if (within) ranges.push(Array.isArray(within) ? { start: Math.min(...within), end: Math.max(...within) } : (within as LineRange));
  if (query.entities) {
    const spans = entitySpans(tree, query.entities, query.language);
    ranges.push({ start: Math.min(...spans.map((s) => s.start)), end: Math.max(...spans.map((s) => s.end)) });
  }
  if (ranges.length === 0) return undefined;
  const start = Math.max(...ranges.map((r) => r.start));
  const end = Math.min(...ranges.map((r) => r.end));
  // A deletion also takes the comment lines right above its statement: look a few rows higher.
  return { from: Math.max(0, start - 1 - 3), to: Math.max(0, end - 1) };
}

/**
 * Where the first code the edit replaces starts, past whitespace and comments: the anchor line of a
 * candidate is a line coverage can report (a body replaced after its docstring anchors at its
 * first statement, a deletion at its statement rather than the comment above it).
 */
function firstCode(source: string, start: number, end: number, lineComment: string): number {
  let index = start;
  while (index < end) {
    const char = source[index];
    if (source.startsWith(lineComment, index)) {
      const newline = source.indexOf('\n', index);
      index = newline === -1 ? end : newline + 1;
    } else if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      index += 1;
    } else {
      return index;
    }
  }
  return start;
}

function compareTuples(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** 1-based line of a string index, by binary search over line starts. */
function lineIndex(source: string): (index: number) => number {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return (index) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= index) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}
