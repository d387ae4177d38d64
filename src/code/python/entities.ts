import { parsePython, type PyNode, type PyTree } from './parse-python.js';

/** Facts about an entity that bug generators filter on (SWE-smith style). */
export const ENTITY_TAGS = [
  'has-loop',
  'has-if',
  'has-if-else',
  'has-return',
  'has-raise',
  'has-binary-op',
  'has-comparison',
  'has-boolean-op',
  'has-not',
  'has-call',
  'has-augmented-assignment',
  'has-comprehension',
  'has-subscript',
  'has-try',
  'is-test',
  'is-property',
  'is-dunder',
  'is-classmethod',
  'is-staticmethod',
  'is-async',
  'is-generator',
  'is-nested',
] as const;
export type EntityTag = (typeof ENTITY_TAGS)[number];

/** A function, method or class of a Python module. */
export interface PythonEntity {
  kind: 'function' | 'method' | 'class';
  name: string;
  /** Like Python's `__qualname__`: `Class.method`, `outer.<locals>.inner`. */
  qualifiedName: string;
  /** 1-based, inclusive, decorators included. */
  startLine: number;
  endLine: number;
  /** The `function_definition` / `class_definition` node (without its decorators). */
  definition: PyNode;
  /** The body `block`. */
  body: PyNode;
  /** McCabe-like: 1 + branches, loops, handlers and boolean operators of the entity's own code. */
  complexity: number;
  /** Sorted in {@link ENTITY_TAGS} order. */
  tags: EntityTag[];
}

const DECISION_TYPES = new Set([
  'if_statement', 'elif_clause', 'for_statement', 'while_statement', 'except_clause', 'conditional_expression',
  'boolean_operator', 'for_in_clause', 'if_clause', 'case_clause',
]);
const NODE_TAGS: Record<string, EntityTag> = {
  for_statement: 'has-loop', while_statement: 'has-loop', if_statement: 'has-if', else_clause: 'has-if-else',
  return_statement: 'has-return', raise_statement: 'has-raise', binary_operator: 'has-binary-op',
  comparison_operator: 'has-comparison', boolean_operator: 'has-boolean-op', not_operator: 'has-not',
  call: 'has-call', augmented_assignment: 'has-augmented-assignment', list_comprehension: 'has-comprehension',
  dictionary_comprehension: 'has-comprehension', set_comprehension: 'has-comprehension',
  generator_expression: 'has-comprehension', subscript: 'has-subscript', try_statement: 'has-try',
  yield: 'is-generator',
};
const DEFINITION_TYPES = new Set(['function_definition', 'class_definition']);

interface Scope {
  prefix: string;
  kind: 'module' | 'class' | 'function';
  isTestClass: boolean;
}

/**
 * Every function, method and class of a module, in source order (outer before inner).
 * A function's tags and complexity cover its own code only: nested functions and classes are
 * entities of their own. A class's cover its whole body.
 */
export function extractEntities(source: string | PyTree): PythonEntity[] {
  const tree = typeof source === 'string' ? parsePython(source) : source;
  const entities: PythonEntity[] = [];
  visitBlock(tree.rootNode, { prefix: '', kind: 'module', isTestClass: false }, entities);
  return entities;
}

function visitBlock(container: PyNode, scope: Scope, out: PythonEntity[]): void {
  for (const child of container.namedChildren) {
    if (child.type === 'decorated_definition') {
      const definition = child.childForFieldName('definition');
      if (definition) visitDefinition(definition, child, scope, out);
    } else if (DEFINITION_TYPES.has(child.type)) {
      visitDefinition(child, child, scope, out);
    } else {
      // Definitions nested in if/try/with/for blocks still belong to the enclosing scope.
      for (const block of child.namedChildren) visitNested(block, scope, out);
    }
  }
}

function visitNested(node: PyNode, scope: Scope, out: PythonEntity[]): void {
  if (node.type === 'block') visitBlock(node, scope, out);
  else if (/_clause$/.test(node.type)) for (const child of node.namedChildren) visitNested(child, scope, out);
}

function visitDefinition(definition: PyNode, outer: PyNode, scope: Scope, out: PythonEntity[]): void {
  const name = definition.childForFieldName('name')?.text ?? '';
  const body = definition.childForFieldName('body');
  if (!body) return;
  const qualifiedName = scope.prefix + name;
  const decorators = outer.namedChildren.filter((c) => c.type === 'decorator').map((c) => c.text.slice(1).trim());
  const isClass = definition.type === 'class_definition';
  const tags = new Set<EntityTag>();
  let complexity = 1;
  walkOwnCode(body, isClass, (node) => {
    if (DECISION_TYPES.has(node.type)) complexity += 1;
    const tag = NODE_TAGS[node.type];
    if (tag) tags.add(tag);
  });
  // A class is not a generator because one of its methods is.
  if (isClass) tags.delete('is-generator');
  const isTestClass = isClass && (/^Test/.test(name) || /\bTestCase\b/.test(definition.childForFieldName('superclasses')?.text ?? ''));
  if (isClass ? isTestClass : scope.isTestClass || (scope.kind === 'module' && /^test/.test(name))) tags.add('is-test');
  if (/^__\w+__$/.test(name)) tags.add('is-dunder');
  if (scope.kind === 'function') tags.add('is-nested');
  if (!isClass) addDecoratorTags(definition, decorators, tags);
  out.push({
    kind: isClass ? 'class' : scope.kind === 'class' ? 'method' : 'function',
    name,
    qualifiedName,
    startLine: outer.startPosition.row + 1,
    endLine: outer.endPosition.row + 1,
    definition,
    body,
    complexity,
    tags: ENTITY_TAGS.filter((tag) => tags.has(tag)),
  });
  const inner: Scope = isClass
    ? { prefix: `${qualifiedName}.`, kind: 'class', isTestClass }
    : { prefix: `${qualifiedName}.<locals>.`, kind: 'function', isTestClass: false };
  visitBlock(body, inner, out);
}

function addDecoratorTags(definition: PyNode, decorators: string[], tags: Set<EntityTag>): void {
  if (definition.children.some((c) => c.type === 'async')) tags.add('is-async');
  for (const decorator of decorators) {
    if (/^(\w+\.)*(property|cached_property)$/.test(decorator) || /^\w+\.(setter|getter|deleter)$/.test(decorator)) tags.add('is-property');
    if (decorator === 'classmethod') tags.add('is-classmethod');
    if (decorator === 'staticmethod') tags.add('is-staticmethod');
  }
}

function walkOwnCode(node: PyNode, intoDefinitions: boolean, visit: (node: PyNode) => void): void {
  for (const child of node.namedChildren) {
    if (!intoDefinitions && (DEFINITION_TYPES.has(child.type) || child.type === 'decorated_definition')) continue;
    visit(child);
    walkOwnCode(child, intoDefinitions, visit);
  }
}
