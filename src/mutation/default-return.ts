import type { PyNode } from '../code/python/parse-python.js';

// Return annotations, by their outermost name (`List[int]` → `List`, `typing.Dict` → `Dict`).
const BY_ANNOTATION: Record<string, string> = {
  None: 'pass', bool: 'False', int: '0', float: '0.0', complex: '0j', str: '""', bytes: 'b""', list: '[]',
  List: '[]', Sequence: '[]', MutableSequence: '[]', dict: '{}', Dict: '{}', Mapping: '{}', MutableMapping: '{}',
  set: 'set()', Set: 'set()', frozenset: 'frozenset()', FrozenSet: 'frozenset()', tuple: '()', Tuple: '()',
  Iterator: 'iter(())', Iterable: 'iter(())', Optional: 'None',
};

// Returned expressions, by node type.
const BY_VALUE: Record<string, string> = {
  list: '[]', list_comprehension: '[]', dictionary: '{}', dictionary_comprehension: '{}', set: 'set()',
  set_comprehension: 'set()', tuple: '()', string: '""', concatenated_string: '""', integer: '0', float: '0.0',
  true: 'False', false: 'False', comparison_operator: 'False', not_operator: 'False',
};

// Returned calls, by the called name (or method name).
const BY_CALL: Record<string, string> = {
  list: '[]', sorted: '[]', dict: '{}', set: 'set()', frozenset: 'frozenset()', tuple: '()', str: '""',
  join: '""', format: '""', strip: '""', lower: '""', upper: '""', replace: '""', int: '0', len: '0', sum: '0',
  round: '0', abs: '0', float: '0.0', bool: 'False', isinstance: 'False', any: 'False', all: 'False',
  startswith: 'False', endswith: 'False',
};

/**
 * The statement that best stands in for a function body that was removed: one that keeps callers
 * running (the method §7 "compatibility fix") while the behaviour is gone. Chosen from the return
 * annotation, else from what the `return` statements return (following a returned local variable
 * to its assignments), else `pass`; `yield from ()` for a generator.
 */
export function defaultReturn(definition: PyNode): string {
  const code = ownCode(definition);
  if (code.some((node) => node.type === 'yield')) return 'yield from ()';
  const annotation = definition.childForFieldName('return_type')?.text.trim() ?? '';
  if (/\|\s*None\b|\bNone\s*\|/.test(annotation)) return 'return None';
  const head = /^(?:[\w.]*\.)?(\w+)/.exec(annotation)?.[1];
  const annotated = head ? BY_ANNOTATION[head] : undefined;
  if (annotated) return annotated === 'pass' ? 'pass' : `return ${annotated}`;
  const values = code.filter((n) => n.type === 'return_statement').map((n) => n.namedChildren[0]).filter((v) => !!v);
  if (values.length === 0) return 'pass';
  for (const value of values) {
    const known = classify(value, code, 0);
    if (known) return `return ${known}`;
  }
  return 'return None';
}

function classify(value: PyNode, code: PyNode[], depth: number): string | undefined {
  const byType = BY_VALUE[value.type];
  if (byType) return byType;
  if (value.type === 'call') {
    const callee = value.childForFieldName('function');
    const name = callee?.type === 'attribute' ? callee.childForFieldName('attribute')?.text : callee?.text;
    return name ? BY_CALL[name] : undefined;
  }
  if (value.type === 'binary_operator') {
    const operands = [value.childForFieldName('left'), value.childForFieldName('right')];
    const kinds = operands.map((operand) => (operand ? classify(operand, code, depth + 1) : undefined));
    const sequence = kinds.find((kind) => kind === '""' || kind === '[]' || kind === '()');
    if (sequence) return sequence;
    if (kinds.includes('0.0')) return '0.0';
    // `+` and `%` also join strings and format them; only plainly numeric operators are numbers.
    const op = value.childForFieldName('operator')?.text ?? '';
    return kinds.includes('0') || ['-', '/', '//', '**'].includes(op) ? '0' : undefined;
  }
  if (value.type === 'boolean_operator') {
    const operands = [value.childForFieldName('left'), value.childForFieldName('right')];
    return operands.some((operand) => operand && classify(operand, code, depth + 1) === 'False') ? 'False' : undefined;
  }
  if (value.type === 'identifier' && depth < 3) {
    // `result = []` ... `return result`: the variable's assignments tell its type.
    for (const node of code) {
      if (node.type !== 'assignment' || node.childForFieldName('left')?.text !== value.text) continue;
      const right = node.childForFieldName('right');
      const known = right && classify(right, code, depth + 1);
      if (known) return known;
    }
  }
  return undefined;
}

// The function's own code: nested functions, classes and lambdas return for themselves.
function ownCode(definition: PyNode): PyNode[] {
  const out: PyNode[] = [];
  const walk = (node: PyNode) => {
    for (const child of node.namedChildren) {
      if (['function_definition', 'class_definition', 'lambda', 'decorated_definition'].includes(child.type)) continue;
      out.push(child);
      walk(child);
    }
  };
  const body = definition.childForFieldName('body');
  if (body) walk(body);
  return out;
}
