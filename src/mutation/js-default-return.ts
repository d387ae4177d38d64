import type { JsNode } from './js-syntax.js';

// Type names, by their outermost name (`Array<T>` → `Array`, `readonly T[]` is an array below).
const BY_TYPE: Record<string, string> = {
  void: '', undefined: 'undefined', never: '', null: 'null', boolean: 'false', Boolean: 'false', number: '0', Number: '0',
  bigint: '0n', string: "''", String: "''", Array: '[]', ReadonlyArray: '[]', Map: 'new Map()', ReadonlyMap: 'new Map()',
  Set: 'new Set()', ReadonlySet: 'new Set()', Record: '{}', object: '{}', Object: '{}',
};

// Returned expressions, by node type.
const BY_VALUE: Record<string, string> = {
  array: '[]', object: '{}', string: "''", template_string: "''", number: '0', true: 'false', false: 'false',
};

// Returned method calls, by the method's name.
const BY_METHOD: Record<string, string> = {
  filter: '[]', map: '[]', flatMap: '[]', slice: '[]', concat: '[]', sort: '[]', reverse: '[]', flat: '[]', keys: '[]',
  values: '[]', entries: '[]', split: '[]', from: '[]', join: "''", trim: "''", toLowerCase: "''", toUpperCase: "''",
  replace: "''", replaceAll: "''", padStart: "''", padEnd: "''", toFixed: "''", toString: "''", repeat: "''", substring: "''",
  indexOf: '-1', findIndex: '-1', reduce: 'undefined', has: 'false', includes: 'false', startsWith: 'false', endsWith: 'false',
  some: 'false', every: 'false', test: 'false', isArray: 'false', isInteger: 'false', max: '0', min: '0', round: '0',
  floor: '0', ceil: '0', abs: '0', parseInt: '0', parseFloat: '0', stringify: "''",
};

const COMPARISONS = new Set(['<', '<=', '>', '>=', '==', '===', '!=', '!==', 'instanceof', 'in']);
const NESTED = new Set(['function_declaration', 'function_expression', 'arrow_function', 'method_definition', 'class_declaration', 'class', 'generator_function_declaration', 'generator_function']);

/**
 * The expression that best stands in for a removed JS/TS function body's result, so that callers
 * keep running while the behaviour is gone (method §7's compatibility fix): from the TypeScript
 * return type, else the JSDoc `@returns {T}` above the function, else what its `return`
 * statements return (following a returned local to its declaration). `''` for a function that
 * returns nothing (an empty body); `undefined` when nothing tells. `Promise<T>` is read as `T`.
 */
export function jsDefaultReturn(definition: JsNode, jsDoc: string | undefined): string {
  const annotation = definition.childForFieldName('return_type')?.text.replace(/^:\s*/, '');
  const declared = annotation ?? /@returns?\s*\{([^}]*)\}/.exec(jsDoc ?? '')?.[1];
  if (declared !== undefined) {
    const known = fromType(declared.trim());
    if (known !== undefined) return known;
  }
  const returns = ownReturns(definition).map((node) => node.namedChildren[0]).filter((value): value is JsNode => !!value);
  if (returns.length === 0) return '';
  for (const value of returns) {
    const known = fromValue(value, definition, 0);
    if (known !== undefined) return known;
  }
  return 'undefined';
}

function fromType(type: string): string | undefined {
  const text = type.replace(/^readonly\s+/, '').trim();
  if (/\|\s*(null|undefined)\b|\b(null|undefined)\s*\|/.test(text)) return /\bnull\b/.test(text) ? 'null' : 'undefined';
  if (/\[\]$/.test(text)) return '[]';
  const promise = /^Promise<(.*)>$/.exec(text);
  if (promise) return fromType(promise[1]!);
  if (/^['"]/.test(text)) return "''";
  if (/^\{/.test(text)) return '{}';
  const head = /^([\w$]+)/.exec(text)?.[1];
  return head ? BY_TYPE[head] : undefined;
}

function fromValue(value: JsNode, definition: JsNode, depth: number): string | undefined {
  const byType = BY_VALUE[value.type];
  if (byType) return byType;
  if (value.type === 'parenthesized_expression' || value.type === 'await_expression') {
    const inner = value.namedChildren[0];
    return inner ? fromValue(inner, definition, depth + 1) : undefined;
  }
  if (value.type === 'unary_expression' && value.childForFieldName('operator')?.text === '!') return 'false';
  if (value.type === 'binary_expression') {
    const op = value.childForFieldName('operator')?.text ?? '';
    if (COMPARISONS.has(op)) return 'false';
    if (['-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>'].includes(op)) return '0';
    const left = value.childForFieldName('left');
    return left ? fromValue(left, definition, depth + 1) : undefined;
  }
  if (value.type === 'new_expression') {
    const name = value.childForFieldName('constructor')?.text;
    return name && ['Map', 'Set', 'Array'].includes(name) ? (name === 'Array' ? '[]' : `new ${name}()`) : undefined;
  }
  if (value.type === 'call_expression') {
    const callee = value.childForFieldName('function');
    const name = callee?.type === 'member_expression' ? callee.childForFieldName('property')?.text : callee?.text;
    return name ? BY_METHOD[name] : undefined;
  }
  if (value.type === 'identifier' && depth < 3) {
    // `const out = []; ... return out;`: the variable's declaration tells its type.
    for (const declarator of definition.descendantsOfType('variable_declarator')) {
      if (declarator.childForFieldName('name')?.text !== value.text) continue;
      const init = declarator.childForFieldName('value');
      const known = init && fromValue(init, definition, depth + 1);
      if (known) return known;
    }
  }
  return undefined;
}

// The function's own `return` statements: nested functions and classes return for themselves.
function ownReturns(definition: JsNode): JsNode[] {
  const out: JsNode[] = [];
  const walk = (node: JsNode): void => {
    for (const child of node.namedChildren) {
      if (NESTED.has(child.type)) continue;
      if (child.type === 'return_statement') out.push(child);
      walk(child);
    }
  };
  const body = definition.childForFieldName('body');
  if (body) walk(body);
  return out;
}
