import type { PyNode } from '../../../code/python/parse-python.js';

/** A `describe` / `it` / `test` block of a JS/TS test file, found with tree-sitter. */
export interface JsTestBlock {
  /** Titles from the outermost block down to this one. */
  titles: string[];
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
 * tape, node-tap and node:test, whose first argument is a plain string title. Calls with a
 * computed title (`it.each`, a template with substitutions) have no name to match a test id by
 * and are left out.
 */
export function jsTestBlocks(root: PyNode): JsTestBlock[] {
  const out: JsTestBlock[] = [];
  const tests = new Set([...TESTS, ...runnerBindings(root)]);
  const visit = (node: PyNode, titles: string[]): void => {
    let inner = titles;
    if (node.type === 'call_expression') {
      const block = testBlock(node, titles, tests);
      if (block) {
        out.push(block);
        inner = block.titles;
      }
    }
    for (const child of node.namedChildren) visit(child, inner);
  };
  visit(root, []);
  return out;
}

function testBlock(call: PyNode, outer: string[], tests: ReadonlySet<string>): JsTestBlock | null {
  const kind = calleeKind(call.childForFieldName('function'), tests);
  if (!kind) return null;
  const args = call.childForFieldName('arguments')?.namedChildren.filter((n) => n.type !== 'comment') ?? [];
  const title = args[0] ? stringValue(args[0]) : null;
  if (title === null) return null;
  const callback = args.slice(1).find((arg) => arg.type === 'arrow_function' || arg.type === 'function_expression' || arg.type === 'function');
  const statement = statementOf(call);
  if (!statement) return null;
  return {
    titles: [...outer, title],
    call,
    statement,
    body: callback?.childForFieldName('body') ?? null,
    contextName: callback ? firstParameter(callback) : null,
    group: kind === 'group',
  };
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

/** The value of a string literal or of a template without substitutions; null for anything else. */
export function stringValue(node: PyNode): string | null {
  if (node.type !== 'string' && node.type !== 'template_string') return null;
  let value = '';
  for (const part of node.namedChildren) {
    if (part.type === 'string_fragment') value += part.text;
    else if (part.type === 'escape_sequence') value += unescape(part.text);
    else return null; // a substitution: computed
  }
  return value;
}

function unescape(sequence: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };
  const char = sequence.slice(1);
  if (char in simple) return simple[char]!;
  if (/^(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})$/.test(char)) return String.fromCharCode(parseInt(char.slice(1), 16));
  if (/^u\{[0-9a-fA-F]+\}$/.test(char)) return String.fromCodePoint(parseInt(char.slice(2, -1), 16));
  return char.startsWith('\n') || char.startsWith('\r') ? '' : char;
}
