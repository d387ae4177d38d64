import type { PyNode } from '../../../code/python/parse-python.js';
import { eachPattern, eachTitle, type EachStyle, type TitlePart } from './js-each-titles.js';
import { literalValue, stringValue } from './js-literal.js';

// Kept importable from here, where it was first.
export { stringValue };

/** A block's title: its text, or, for an `.each` title not known exactly, its parts (`null`: any text). */
export type JsTitle = string | { parts: readonly TitlePart[] };

/** One row of an `.each` / `.for` table written as a literal: the tests of that row. */
export interface JsEachRow {
  /** The row's element of the table array (its own lines can go alone). */
  node: PyNode;
  /** Every row of the same table. */
  rows: readonly PyNode[];
}

/** A `describe` / `it` / `test` block of a JS/TS test file, found with tree-sitter. */
export interface JsTestBlock {
  /** Titles from the outermost block down to this one. */
  titles: JsTitle[];
  /** The call (`it('adds', () => { ... })`). */
  call: PyNode;
  /** The statement holding the call (its line span is what deleting the block deletes). */
  statement: PyNode;
  /** The callback's body: a statement block, or the expression of a concise arrow (`() => assert.ok(x)`). */
  body: PyNode | null;
  /** The callback's first parameter (tape's and node:test's `t`), when it has one. */
  contextName: string | null;
  /** Whether it is a group (`describe`, `suite`, `context`) rather than a test. */
  group: boolean;
  /** A block of an `.each` / `.for` call: its row, when its table is a literal (else null). */
  each?: JsEachRow | null;
}

const TESTS = new Set(['it', 'test', 'specify']);
const GROUPS = new Set(['describe', 'suite', 'context']);
// Modules whose export (default, or the whole module) is the test function.
const RUNNER_MODULES = new Set(['tape', 'node:test']);
// `it.only(...)`, `describe.concurrent(...)`: still a block that runs (skip and todo do not).
const MODIFIERS = new Set(['only', 'concurrent', 'sequential', 'serial']);

/**
 * Every test block of a parsed JS/TS test file, outermost first: calls of `describe` / `it` /
 * `test` (and `suite`, `context`, `specify`, their `.only` forms, and whatever name the file gives
 * tape's or node:test's test function), and `t.test(...)` subtests of
 * tape, node-tap and node:test, whose first argument is a plain string title. A call with a
 * computed title (a template with substitutions) has no name to match a test id by and is left
 * out. `it.each(table)(title, fn)` (and `describe.each`, Vitest's `test.for`) is one block per
 * row of a literal table, titled by `style`'s rules (js-each-titles.ts), or one block whose title
 * is a pattern when the table is not a literal (a name, a tagged template).
 */
export function jsTestBlocks(root: PyNode, style: EachStyle = 'vitest'): JsTestBlock[] {
  const out: JsTestBlock[] = [];
  const tests = new Set([...TESTS, ...runnerBindings(root)]);
  const visit = (node: PyNode, titles: JsTitle[]): void => {
    const blocks = node.type === 'call_expression' ? testBlocks(node, titles, style, tests) : [];
    out.push(...blocks);
    for (const inner of blocks.length > 0 ? blocks.map((block) => block.titles) : [titles]) {
      for (const child of node.namedChildren) visit(child, inner);
    }
  };
  visit(root, []);
  return out;
}

/** The title text of a block's titles joined by `join`; unknown parts of a pattern show as `*`. */
export function titleText(titles: readonly JsTitle[], join: string): string {
  return titles.map((title) => (typeof title === 'string' ? title : title.parts.map((part) => part ?? '*').join(''))).join(join);
}

/** Whether every title is known exactly (no `.each` pattern among them). */
export function exactTitles(titles: readonly JsTitle[]): titles is string[] {
  return titles.every((title) => typeof title === 'string');
}

/** Whether a test id's name (titles joined by `join`) is one of the names a pattern title stands for. */
export function titlesMatch(titles: readonly JsTitle[], name: string, join: string): boolean {
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = titles
    .map((title) => (typeof title === 'string' ? escape(title) : title.parts.map((part) => (part === null ? '[^]*' : escape(part))).join('')))
    .join(escape(join));
  return new RegExp(`^${source}$`).test(name);
}

function testBlocks(call: PyNode, outer: JsTitle[], style: EachStyle, tests: ReadonlySet<string>): JsTestBlock[] {
  const callee = call.childForFieldName('function');
  const each = callee?.type === 'call_expression' ? eachCall(callee, tests) : null;
  const kind = each ? each.kind : calleeKind(callee, tests);
  if (!kind) return [];
  const args = call.childForFieldName('arguments')?.namedChildren.filter((n) => n.type !== 'comment') ?? [];
  const title = args[0] ? stringValue(args[0]) : null;
  if (title === null) return [];
  const callback = args.slice(1).find((arg) => arg.type === 'arrow_function' || arg.type === 'function_expression' || arg.type === 'function');
  const statement = statementOf(call);
  if (!statement) return [];
  const block = (titles: JsTitle[], row?: JsEachRow | null): JsTestBlock => ({
    titles,
    call,
    statement,
    body: callback?.childForFieldName('body') ?? null,
    contextName: callback ? firstParameter(callback) : null,
    group: kind === 'group',
    ...(row === undefined ? {} : { each: row }),
  });
  if (!each) return [block([...outer, title])];
  const table = each.table ? literalValue(each.table) : undefined;
  const rows = each.table?.namedChildren.filter((n) => n.type !== 'comment') ?? [];
  if (!table || !Array.isArray(table.value) || table.value.length === 0 || table.value.length !== rows.length) {
    return [block([...outer, { parts: eachPattern(title) }], null)];
  }
  const values = table.value;
  return rows.map((node, index) => {
    const parts = eachTitle(title, values, index, style);
    const text: JsTitle = parts.every((part) => part !== null) ? parts.join('') : { parts };
    return block([...outer, text], { node, rows });
  });
}

/** `it.each(table)` / `describe.only.each(table)` / `test.for(table)` / `it.each\`…\``: the block kind and the table (null when a tagged template). */
function eachCall(call: PyNode, tests: ReadonlySet<string>): { kind: 'test' | 'group'; table: PyNode | null } | null {
  const callee = call.childForFieldName('function');
  if (callee?.type !== 'member_expression') return null;
  const property = callee.childForFieldName('property')?.text;
  if (property !== 'each' && property !== 'for') return null;
  const kind = calleeKind(callee.childForFieldName('object'), tests);
  if (!kind) return null;
  const args = call.childForFieldName('arguments');
  if (args?.type !== 'arguments') return { kind, table: null };
  return { kind, table: args.namedChildren.find((n) => n.type !== 'comment') ?? null };
}

function calleeKind(callee: PyNode | null, tests: ReadonlySet<string>): 'test' | 'group' | null {
  if (!callee) return null;
  if (callee.type === 'identifier') return tests.has(callee.text) ? 'test' : GROUPS.has(callee.text) ? 'group' : null;
  if (callee.type !== 'member_expression') return null;
  const object = callee.childForFieldName('object');
  const property = callee.childForFieldName('property')?.text ?? '';
  if (object?.type === 'identifier' && MODIFIERS.has(property)) return calleeKind(object, tests);
  // `t.test('name', t => ...)`, `tap.test(...)`: a subtest.
  if (object?.type === 'identifier' && (property === 'test' || property === 'describe' || property === 'it')) return property === 'describe' ? 'group' : 'test';
  return null;
}

/**
 * Local names of a runner's test function under another name: `var tape = require('tape')`,
 * `import check from 'node:test'` (path-browserify calls its tests `tape(...)`).
 */
function runnerBindings(root: PyNode): string[] {
  const names: string[] = [];
  for (const declarator of root.descendantsOfType('variable_declarator')) {
    const value = declarator.childForFieldName('value');
    const name = declarator.childForFieldName('name');
    if (value?.type !== 'call_expression' || value.childForFieldName('function')?.text !== 'require' || name?.type !== 'identifier') continue;
    const argument = value.childForFieldName('arguments')?.namedChildren[0];
    if (argument && RUNNER_MODULES.has(stringValue(argument) ?? '')) names.push(name.text);
  }
  for (const statement of root.descendantsOfType('import_statement')) {
    const from = statement.childForFieldName('source');
    if (!from || !RUNNER_MODULES.has(stringValue(from) ?? '')) continue;
    const clause = statement.namedChildren.find((n) => n.type === 'import_clause');
    const defaultName = clause?.namedChildren.find((n) => n.type === 'identifier');
    if (defaultName) names.push(defaultName.text);
  }
  return names;
}

/** The expression statement a test call is (maybe awaited); null when it is part of a larger expression. */
function statementOf(call: PyNode): PyNode | null {
  let node = call;
  if (node.parent?.type === 'await_expression') node = node.parent;
  return node.parent?.type === 'expression_statement' ? node.parent : null;
}

function firstParameter(callback: PyNode): string | null {
  const params = callback.childForFieldName('parameters') ?? callback.childForFieldName('parameter');
  if (!params) return null;
  if (params.type === 'identifier') return params.text;
  const first = params.namedChildren.find((n) => n.type !== 'comment');
  if (!first) return null;
  if (first.type === 'identifier') return first.text;
  const pattern = first.childForFieldName('pattern');
  return pattern?.type === 'identifier' ? pattern.text : null;
}
