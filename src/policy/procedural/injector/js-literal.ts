import type { PyNode } from '../../../code/python/parse-python.js';

/** A literal's value, boxed so that `undefined` is a value too; absent when the node is not a plain literal. */
export type Literal = { value: unknown } | undefined;

/**
 * The value of a JS literal written in the source: strings (templates without substitutions),
 * numbers (negated too), booleans, null, undefined, and arrays and objects of them. Anything
 * computed (a name, a call, a spread, a computed key) is not a literal: its value is unknown.
 */
export function literalValue(node: PyNode): Literal {
  switch (node.type) {
    case 'string':
    case 'template_string': {
      const text = stringValue(node);
      return text === null ? undefined : { value: text };
    }
    case 'number':
      return numberValue(node.text);
    case 'true':
      return { value: true };
    case 'false':
      return { value: false };
    case 'null':
      return { value: null };
    case 'undefined':
      return { value: undefined };
    case 'identifier':
      return node.text === 'undefined' ? { value: undefined } : node.text === 'NaN' ? { value: NaN } : node.text === 'Infinity' ? { value: Infinity } : undefined;
    case 'parenthesized_expression':
      return node.namedChildren.length === 1 ? literalValue(node.namedChildren[0]!) : undefined;
    case 'unary_expression': {
      const operator = node.childForFieldName('operator')?.text;
      const argument = node.childForFieldName('argument');
      const inner = argument ? literalValue(argument) : undefined;
      if (!inner || typeof inner.value !== 'number' || (operator !== '-' && operator !== '+')) return undefined;
      return { value: operator === '-' ? -inner.value : inner.value };
    }
    case 'array':
      return arrayValue(node);
    case 'object':
      return objectValue(node);
    default:
      return undefined;
  }
}

function numberValue(text: string): Literal {
  const clean = text.replace(/_/g, '');
  if (/n$/.test(clean)) return undefined; // BigInt: formatted apart by each runner, left unknown
  const value = /^0[0-7]+$/.test(clean) ? parseInt(clean, 8) : Number(clean);
  return Number.isNaN(value) ? undefined : { value };
}

function arrayValue(node: PyNode): Literal {
  const values: unknown[] = [];
  for (const element of node.namedChildren.filter((child) => child.type !== 'comment')) {
    const inner = literalValue(element);
    if (!inner) return undefined;
    values.push(inner.value);
  }
  return { value: values };
}

function objectValue(node: PyNode): Literal {
  const value: Record<string, unknown> = {};
  for (const member of node.namedChildren.filter((child) => child.type !== 'comment')) {
    if (member.type !== 'pair') return undefined; // shorthand names, spreads and methods are computed
    const key = member.childForFieldName('key');
    const inner = member.childForFieldName('value');
    const name = key?.type === 'property_identifier' ? key.text : key?.type === 'string' ? stringValue(key) : key?.type === 'number' ? String(Number(key.text)) : null;
    const boxed = inner ? literalValue(inner) : undefined;
    if (name === null || name === undefined || !boxed) return undefined;
    value[name] = boxed.value;
  }
  return { value };
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
