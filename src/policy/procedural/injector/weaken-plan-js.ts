import type { PyNode } from '../../../code/python/parse-python.js';
import { parseSource } from '../../../code/parse-source.js';
import type { SourceLanguage } from '../../../code/source-language.js';
import { splitText } from '../../../tools/line-match.js';
import { jsTestBlocks, stringValue, type JsTestBlock } from './js-test-blocks.js';
import { editsDeleting, mergeSpans, type Span } from './span-edits.js';
import type { WeakenPlan, WeakenTarget } from './weaken-plan.js';

/** The id a runner's parser gives a test, from its titles outermost first (the part after `file > `). */
export type TestName = (titles: readonly string[]) => string;

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
 * A target's `qualifiedName` is what `name` makes of the test's titles: joined by ` > ` by
 * default (Mocha's full titles join them with a space; tape's flat TAP names only the innermost
 * one). Every test of that name goes, since the runner reports them all under the one id. An
 * assertion goes alone only when its test has another one and its
 * block keeps a statement; else the test goes whole, as does a `describe` left with no statement.
 * A test whose call shares a line with other code cannot be cut out by lines and is unresolved.
 */
export function planJsWeakening(source: string, language: SourceLanguage, targets: readonly WeakenTarget[], name: TestName = (titles) => titles.join(' > ')): WeakenPlan {
  const lines = splitText(source).lines;
  const root = parseSource(source, language).rootNode;
  const blocks = jsTestBlocks(root);
  const assertNames = new Set([...ASSERT_GLOBALS, ...importedAssertNames(root)]);
  const spans: Span[] = [];
  const deletedTests: string[] = [];
  const deletedAssertions: string[] = [];
  const unresolved: string[] = [];
  for (const target of targets) {
    const named = blocks.filter((b) => !b.group && name(b.titles) === target.qualifiedName);
    if (named.length === 0) {
      unresolved.push(target.qualifiedName);
      continue;
    }
    const line = target.assertLine;
    const assertion = line === undefined ? undefined : named.map((block) => assertAt(block, blocks, line, assertNames)).find((a) => a !== undefined);
    if (assertion) {
      spans.push({ start: assertion.startPosition.row + 1, end: assertion.endPosition.row + 1 });
      deletedAssertions.push(`${target.qualifiedName}:${target.assertLine}`);
      continue;
    }
    if (deletedTests.includes(target.qualifiedName)) continue;
    const blockSpans = named.map((block) => statementSpan(source, lines, block.statement));
    if (blockSpans.some((span) => span === null)) {
      unresolved.push(target.qualifiedName);
      continue;
    }
    spans.push(...(blockSpans as Span[]));
    deletedTests.push(target.qualifiedName);
  }
  // Innermost first, so a group emptied of its emptied groups goes too.
  for (const group of [...blocks].reverse()) {
    if (!group.group || !emptiedBy(group, spans)) continue;
    const span = statementSpan(source, lines, group.statement);
    if (!span) continue;
    spans.push(span);
    deletedTests.push(name(group.titles));
  }
  const { edits, after } = editsDeleting(source, mergeSpans(spans).map((span) => tidy(lines, span)));
  return { edits, deletedTests, deletedAssertions, unresolved, after };
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
