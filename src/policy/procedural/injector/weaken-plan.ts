import { extractEntities, type PythonEntity } from '../../../code/python/entities.js';
import type { PyNode } from '../../../code/python/parse-python.js';
import { splitText } from '../../../tools/line-match.js';
import type { LineEdit } from './line-edit.js';
import { editsDeleting, mergeSpans, type Span } from './span-edits.js';

/** What to hide in one test file: whole tests, or single failing assertions. */
export interface WeakenTarget {
  /** In-file dotted name (`TestClass.test_method`, `test_function`). */
  qualifiedName: string;
  /** Delete only the assert statement starting at this 1-based line (it must lie in the test). */
  assertLine?: number;
}

/** The edits that weaken one test file, and what they removed. */
export interface WeakenPlan {
  edits: LineEdit[];
  /** Tests deleted whole (a class whose every test went is deleted whole too and listed by its name). */
  deletedTests: string[];
  /** Tests that lost one assertion: `name:line`. */
  deletedAssertions: string[];
  /** Targets not found in the file. */
  unresolved: string[];
  /** The file after every edit. */
  after: string;
}

/**
 * Plan the `edit` calls that delete the given tests (decorators and the comment lines right
 * above included) or single assert statements from a test file. Tests are deleted, never
 * commented out (method §2). A class left with no statement but its docstring is deleted whole so
 * the file still parses. Nearby deletions are merged into one edit.
 */
export function planWeakening(source: string, targets: readonly WeakenTarget[]): WeakenPlan {
  const lines = splitText(source).lines;
  const entities = extractEntities(source);
  const spans: Span[] = [];
  const deletedTests: string[] = [];
  const deletedAssertions: string[] = [];
  const unresolved: string[] = [];
  const byName = new Map(entities.map((e) => [e.qualifiedName, e]));
  for (const target of targets) {
    const entity = byName.get(target.qualifiedName);
    if (!entity || entity.kind === 'class') {
      unresolved.push(target.qualifiedName);
      continue;
    }
    const assertion = target.assertLine === undefined ? undefined : assertAt(entity, target.assertLine);
    if (assertion) {
      spans.push({ start: assertion.startPosition.row + 1, end: assertion.endPosition.row + 1 });
      deletedAssertions.push(`${target.qualifiedName}:${target.assertLine}`);
    } else if (!deletedTests.includes(entity.qualifiedName)) {
      spans.push(entitySpan(lines, entity));
      deletedTests.push(entity.qualifiedName);
    }
  }
  // Innermost first, so a class emptied of its emptied nested classes goes too.
  for (const entity of [...entities].reverse()) {
    if (entity.kind === 'class' && emptiedBy(entity, spans)) {
      spans.push(entitySpan(lines, entity));
      deletedTests.push(entity.qualifiedName);
    }
  }
  const { edits, after } = editsDeleting(source, mergeSpans(spans).map((span) => tidy(lines, span)));
  return { edits, deletedTests, deletedAssertions, unresolved, after };
}

// The entity's lines, the comment lines glued above it, and the blank lines that separated it.
function entitySpan(lines: readonly string[], entity: PythonEntity): Span {
  let start = entity.startLine;
  while (start > 1 && /^\s*#/.test(lines[start - 2] ?? '')) start--;
  let end = entity.endLine;
  const blankAbove = start > 1 && (lines[start - 2] ?? '').trim() === '';
  if (blankAbove) while (start > 1 && (lines[start - 2] ?? '').trim() === '') start--;
  else while (end < lines.length && (lines[end] ?? '').trim() === '') end++;
  return { start, end };
}

// An assert statement (or a `self.assert…(...)` call) starting on `line`, directly or nested in the test's own body.
function assertAt(entity: PythonEntity, line: number): PyNode | undefined {
  const asserts = entity.body.descendantsOfType(['assert_statement', 'expression_statement']).filter(isAssertion);
  if (asserts.length < 2) return undefined;
  const found = asserts.find((node) => node.startPosition.row + 1 === line);
  // Keep the block it sits in non-empty: the edit must leave valid Python.
  if (!found || found.parent?.namedChildren.filter((c) => c.type !== 'comment').length === 1) return undefined;
  return found;
}

function isAssertion(node: PyNode): boolean {
  if (node.type === 'assert_statement') return true;
  const call = node.namedChildren[0];
  const callee = call?.type === 'call' ? call.childForFieldName('function') : null;
  return node.namedChildCount === 1 && callee?.type === 'attribute' && /^self\.assert\w*$/.test(callee.text);
}

// Whether every statement of a class body, its docstring aside, falls inside a deleted span.
function emptiedBy(entity: PythonEntity, spans: readonly Span[]): boolean {
  const statements = entity.body.namedChildren.filter((c) => c.type !== 'comment');
  const code = statements.filter((s, i) => !(i === 0 && s.type === 'expression_statement' && s.namedChildren[0]?.type === 'string'));
  if (code.length === 0) return false;
  return code.every((s) => spans.some((span) => s.startPosition.row + 1 >= span.start && s.endPosition.row + 1 <= span.end));
}

// Blank lines around a deletion: none left right under a block header (`class T:`), and code that
// ends up on both sides stays separated by the blank lines that followed the deleted code.
function tidy(lines: readonly string[], span: Span): Span {
  const before = lines[span.start - 2];
  let end = span.end;
  if (before !== undefined && /:\s*(#.*)?$/.test(before)) {
    while (end < lines.length && (lines[end] ?? '').trim() === '') end++;
  } else if (before !== undefined && before.trim() !== '' && (lines[span.end] ?? '').trim() !== '') {
    while (end > span.start && (lines[end - 1] ?? '').trim() === '') end--;
  }
  return { start: span.start, end };
}
