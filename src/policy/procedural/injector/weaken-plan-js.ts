import type { PyNode } from '../../../code/python/parse-python.js';
import { parseSource } from '../../../code/parse-source.js';
import type { SourceLanguage } from '../../../code/source-language.js';
import { splitText } from '../../../tools/line-match.js';
import type { EachStyle } from './js-each-titles.js';
import { stringValue } from './js-literal.js';
import { exactTitles, jsTestBlocks, titlesMatch, titleText, type JsTestBlock } from './js-test-blocks.js';
import { editsDeleting, mergeSpans, type Span } from './span-edits.js';
import type { WeakenPlan, WeakenTarget } from './weaken-plan.js';

// Modules whose exports are assertions: node:assert, chai, and the expect of Jest and Vitest.
const ASSERT_MODULE = /^(?:node:)?assert(?:\/strict)?$|^chai$|^vitest$|^@jest\/globals$|^expect$/;
const ASSERT_GLOBALS = ['assert', 'expect', 'should'];
// What a test's context object (`t`) offers besides assertions.
const CONTEXT_NON_ASSERT = new Set([
  'end', 'plan', 'test', 'teardown', 'comment', 'timeoutAfter', 'skip', 'todo', 'before', 'after', 'beforeEach', 'afterEach',
  'mock', 'diagnostic', 'runOnly', 'signal', 'name', 'context', 'setTimeout', 'pass',
]);

/**
 * {@link planWeakening} for a JS/TS test file: delete single assertion statements (`assert.equal(…)`,
 * `expect(…).toBe(…)`, `t.equal(…)`) or whole `it(…)` / `test(…)` calls, found with tree-sitter.
 * A target's `qualifiedName` is the test's titles joined by `join` (` > `; Mocha's full titles
 * join them with a space; with `innermost`, tape's flat TAP, a test is named by its innermost title
 * alone, and every test of a name goes, as the runner reports them under one id). An assertion goes alone only when its test has another one and its
 * block keeps a statement; else the test goes whole, as does a `describe` left with no statement.
 * A test of an `it.each` table goes as its row of the table when that row has lines of its own
 * and other rows stay; else (every row, a row sharing a line, a table that is not a literal, its
 * title matched as a pattern by `style`'s format rules) the whole `.each` call goes.
 * A test whose call shares a line with other code cannot be cut out by lines and is unresolved.
 */
export function planJsWeakening(source: string, language: SourceLanguage, targets: readonly WeakenTarget[], join = ' > ', style: EachStyle = 'vitest', innermost = false): WeakenPlan {
  const lines = splitText(source).lines;
  const root = parseSource(source, language).rootNode;
  const found = jsTestBlocks(root, style);
  const blocks = innermost ? found.map((block) => ({ ...block, titles: block.titles.slice(-1) })) : found;
  const assertNames = new Set([...ASSERT_GLOBALS, ...importedAssertNames(root)]);
  const spans: Span[] = [];
  const deletedTests: string[] = [];
  const deletedAssertions: string[] = [];
  const unresolved: string[] = [];
  // Rows of literal `.each` tables to delete, by the table's statement.
  const rowCuts = new Map<number, { block: JsTestBlock; rows: Set<number>; names: string[] }>();
  const deleteWhole = (block: JsTestBlock, names: string[]): void => {
    const span = statementSpan(source, lines, block.statement);
    if (!span) {
      unresolved.push(...names);
      return;
    }
    spans.push(span);
    deletedTests.push(...names);
  };
  for (const target of targets) {
    const block = findTest(blocks, target.qualifiedName, join);
    if (!block) {
      unresolved.push(target.qualifiedName);
      continue;
    }
    const assertion = target.assertLine === undefined ? undefined : assertAt(block, blocks, target.assertLine, assertNames);
    if (assertion) {
      spans.push({ start: assertion.startPosition.row + 1, end: assertion.endPosition.row + 1 });
      deletedAssertions.push(`${target.qualifiedName}:${target.assertLine}`);
      continue;
    }
    if (deletedTests.includes(target.qualifiedName)) continue;
    if (block.each) {
      const cut = rowCuts.get(block.statement.startIndex) ?? { block, rows: new Set<number>(), names: [] };
      rowCuts.set(block.statement.startIndex, cut);
      cut.rows.add(block.each.node.startIndex);
      if (!cut.names.includes(target.qualifiedName)) cut.names.push(target.qualifiedName);
      continue;
    }
    deleteWhole(block, [target.qualifiedName]);
    // The runner reports every test of that name under the one id: they all go.
    const twins = blocks.filter((b) => b !== block && !b.group && !b.each && exactTitles(b.titles) && b.titles.join(join) === target.qualifiedName);
    for (const twin of twins) deleteWhole(twin, []);
  }
  for (const { block, rows, names } of rowCuts.values()) {
    const table = block.each!.rows;
    const rowSpans = table.filter((row) => rows.has(row.startIndex)).map((row) => ownLines(source, row, /^\s*,?\s*(\/\/.*)?$/));
    if (rows.size === table.length || rowSpans.some((span) => span === null)) deleteWhole(block, names);
    else {
      spans.push(...(rowSpans as Span[]));
      deletedTests.push(...names);
    }
  }
  // Innermost first, so a group emptied of its emptied groups goes too (a `describe.each` once).
  const goneGroups = new Set<number>();
  for (const group of [...blocks].reverse()) {
    if (!group.group || goneGroups.has(group.statement.startIndex) || !emptiedBy(group, spans)) continue;
    const span = statementSpan(source, lines, group.statement);
    if (!span) continue;
    spans.push(span);
    goneGroups.add(group.statement.startIndex);
    deletedTests.push(titleText(group.titles, join));
  }
  const { edits, after } = editsDeleting(source, mergeSpans(spans).map((span) => tidy(lines, span)));
  return { edits, deletedTests, deletedAssertions, unresolved, after };
}

/**
 * The test a name is: the one whose titles are exactly it, else the one `.each` call whose
 * title pattern it fits (several different calls fitting it: ambiguous, none).
 */
function findTest(blocks: readonly JsTestBlock[], name: string, join: string): JsTestBlock | undefined {
  const exact = blocks.find((b) => !b.group && exactTitles(b.titles) && b.titles.join(join) === name);
  if (exact) return exact;
  const fitting = blocks.filter((b) => !b.group && !exactTitles(b.titles) && titlesMatch(b.titles, name, join));
  return new Set(fitting.map((b) => b.call.startIndex)).size === 1 ? fitting[0] : undefined;
}

/** The lines of `node` when it is alone on them (only `after` may follow it on its last line). */
function ownLines(source: string, node: PyNode, after: RegExp): Span | null {
  const lineStart = source.lastIndexOf('\n', node.startIndex - 1) + 1;
  const lineEnd = source.indexOf('\n', node.endIndex);
  if (source.slice(lineStart, node.startIndex).trim() !== '') return null;
  if (!after.test(source.slice(node.endIndex, lineEnd < 0 ? source.length : lineEnd))) return null;
  return { start: node.startPosition.row + 1, end: node.endPosition.row + 1 };
}

/** The assertion statement of `block` (not of a nested test) spanning `line`, when deleting it alone leaves valid code. */
function assertAt(block: JsTestBlock, blocks: readonly JsTestBlock[], line: number, assertNames: ReadonlySet<string>): PyNode | undefined {
  if (block.body?.type !== 'statement_block') return undefined;
  const nested = blocks.filter((b) => b !== block && b.call.startIndex >= block.body!.startIndex && b.call.endIndex <= block.body!.endIndex);
  const own = block.body
    .descendantsOfType('expression_statement')
    .filter((s) => !nested.some((b) => s.startIndex >= b.call.startIndex && s.endIndex <= b.call.endIndex))
    .filter((s) => isAssertion(s, assertNames, block.contextName));
  if (own.length < 2) return undefined;
  const found = own.find((s) => s.startPosition.row + 1 <= line && line <= s.endPosition.row + 1);
  if (!found || found.parent?.namedChildren.filter((c) => c.type !== 'comment').length === 1) return undefined;
  return found;
}

function isAssertion(statement: PyNode, assertNames: ReadonlySet<string>, contextName: string | null): boolean {
  let expression = statement.namedChildren[0];
  if (expression?.type === 'await_expression') expression = expression.namedChildren[0];
  if (expression?.type !== 'call_expression') return false;
  let node: PyNode | null = expression.childForFieldName('function');
  let nextToRoot: string | null = null;
  while (node && (node.type === 'call_expression' || node.type === 'member_expression')) {
    if (node.type === 'member_expression') nextToRoot = node.childForFieldName('property')?.text ?? null;
    node = node.type === 'call_expression' ? node.childForFieldName('function') : node.childForFieldName('object');
  }
  if (node?.type !== 'identifier') return false;
  if (contextName !== null && node.text === contextName) return nextToRoot !== null && !CONTEXT_NON_ASSERT.has(nextToRoot);
  return assertNames.has(node.text);
}

/** Local names bound by `import … from 'node:assert'` (chai, vitest, …) or `require('assert')`. */
function importedAssertNames(root: PyNode): string[] {
  const names: string[] = [];
  for (const statement of root.descendantsOfType('import_statement')) {
    const from = statement.childForFieldName('source');
    if (!from || !ASSERT_MODULE.test(stringValue(from) ?? '')) continue;
    for (const clause of statement.namedChildren.filter((n) => n.type === 'import_clause')) {
      names.push(...clause.descendantsOfType('identifier').map((n) => n.text));
    }
  }
  for (const declarator of root.descendantsOfType('variable_declarator')) {
    const value = declarator.childForFieldName('value');
    const callee = value?.type === 'call_expression' ? value.childForFieldName('function') : null;
    const argument = value?.childForFieldName('arguments')?.namedChildren[0];
    if (callee?.text !== 'require' || !argument || !ASSERT_MODULE.test(stringValue(argument) ?? '')) continue;
    const name = declarator.childForFieldName('name');
    if (name) names.push(...[name, ...name.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern'])].filter((n) => n.type !== 'object_pattern').map((n) => n.text));
  }
  return names;
}

// A statement's own lines (it must be alone on them), the comment lines glued above it, and the
// blank lines that separated it from its neighbours.
function statementSpan(source: string, lines: readonly string[], statement: PyNode): Span | null {
  const lineStart = source.lastIndexOf('\n', statement.startIndex - 1) + 1;
  const lineEnd = source.indexOf('\n', statement.endIndex);
  const before = source.slice(lineStart, statement.startIndex);
  const after = source.slice(statement.endIndex, lineEnd < 0 ? source.length : lineEnd);
  if (before.trim() !== '' || !/^\s*;?\s*(\/\/.*)?$/.test(after)) return null;
  let start = statement.startPosition.row + 1;
  while (start > 1 && /^\s*(\/\/|\/\*|\*)/.test(lines[start - 2] ?? '')) start--;
  let end = statement.endPosition.row + 1;
  const blankAbove = start > 1 && (lines[start - 2] ?? '').trim() === '';
  if (blankAbove) while (start > 1 && (lines[start - 2] ?? '').trim() === '') start--;
  else while (end < lines.length && (lines[end] ?? '').trim() === '') end++;
  return { start, end };
}

// Whether every statement of a group's callback body falls inside a deleted span.
function emptiedBy(group: JsTestBlock, spans: readonly Span[]): boolean {
  if (group.body?.type !== 'statement_block') return false;
  const statements = group.body.namedChildren.filter((c) => c.type !== 'comment');
  if (statements.length === 0) return false;
  return statements.every((s) => spans.some((span) => s.startPosition.row + 1 >= span.start && s.endPosition.row + 1 <= span.end));
}

// Blank lines around a deletion: none left right under an opening brace, and code that ends up
// on both sides stays separated by the blank lines that followed the deleted code.
function tidy(lines: readonly string[], span: Span): Span {
  const before = lines[span.start - 2];
  let end = span.end;
  if (before !== undefined && /[{([]\s*(\/\/.*)?$/.test(before)) {
    while (end < lines.length && (lines[end] ?? '').trim() === '') end++;
  } else if (before !== undefined && before.trim() !== '' && (lines[span.end] ?? '').trim() !== '') {
    while (end > span.start && (lines[end - 1] ?? '').trim() === '') end--;
  }
  return { start: span.start, end };
}
