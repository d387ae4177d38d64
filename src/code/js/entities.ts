import type Parser from 'tree-sitter';

type JsNode = Parser.SyntaxNode;

/** A function, method or class of a JavaScript / TypeScript module (the counterpart of `PythonEntity`). */
export interface JsEntity {
  kind: 'function' | 'method' | 'class';
  name: string;
  /** `Class.method`; a function inside a function is `outer.<locals>.inner`, as Python's `__qualname__` writes it. */
  qualifiedName: string;
  /** 1-based, inclusive: the whole declaration (`export` and `const f =` included). */
  startLine: number;
  endLine: number;
  /** The function, method or class node. */
  definition: JsNode;
  /** Its body (`statement_block`, `class_body`, or an arrow function's expression). */
  body: JsNode;
}

const FUNCTIONS = new Set(['function_declaration', 'generator_function_declaration', 'function_expression', 'function', 'generator_function', 'arrow_function']);
const CLASSES = new Set(['class_declaration', 'class', 'abstract_class_declaration']);

/**
 * Every named function, method and class of a parsed JS/TS module, in source order (outer before
 * inner): declarations, functions and classes bound to a `const` / `let` / `var`, class methods
 * and arrow-function fields. Anonymous callbacks are not entities (they have no name to filter on).
 */
export function extractJsEntities(tree: Parser.Tree): JsEntity[] {
  const out: JsEntity[] = [];
  visit(tree.rootNode, '', 'module', out);
  return out;
}

function visit(node: JsNode, prefix: string, scope: 'module' | 'class' | 'function', out: JsEntity[]): void {
  for (const child of node.namedChildren) {
    const found = entityOf(child);
    if (!found) {
      if (child.type !== 'class_body') visit(child, prefix, scope, out);
      continue;
    }
    const { name, definition, outer } = found;
    const body = definition.childForFieldName('body');
    if (!body) continue;
    const isClass = CLASSES.has(definition.type);
    const qualifiedName = prefix + name;
    out.push({
      kind: isClass ? 'class' : scope === 'class' ? 'method' : 'function',
      name,
      qualifiedName,
      startLine: outer.startPosition.row + 1,
      endLine: outer.endPosition.row + 1,
      definition,
      body,
    });
    visit(body, isClass ? `${qualifiedName}.` : `${qualifiedName}.<locals>.`, isClass ? 'class' : 'function', out);
  }
}

/** The entity a statement or class member declares: its name, the function or class node, and the node to span. */
function entityOf(node: JsNode): { name: string; definition: JsNode; outer: JsNode } | undefined {
  if (node.type === 'export_statement') {
    const declaration = node.childForFieldName('declaration') ?? node.namedChildren.find((c) => FUNCTIONS.has(c.type) || CLASSES.has(c.type));
    const inner = declaration && entityOf(declaration);
    return inner && { ...inner, outer: node };
  }
  if (FUNCTIONS.has(node.type) || CLASSES.has(node.type)) {
    const name = node.childForFieldName('name')?.text;
    return name ? { name, definition: node, outer: node } : undefined;
  }
  if (node.type === 'method_definition') {
    const name = node.childForFieldName('name')?.text;
    return name ? { name, definition: node, outer: node } : undefined;
  }
  if (node.type === 'public_field_definition' || node.type === 'field_definition') {
    const value = node.childForFieldName('value');
    const name = (node.childForFieldName('name') ?? node.childForFieldName('property'))?.text;
    return value && name && FUNCTIONS.has(value.type) ? { name, definition: value, outer: node } : undefined;
  }
  if (node.type === 'lexical_declaration' || node.type === 'variable_declaration') {
    const declarators = node.namedChildren.filter((c) => c.type === 'variable_declarator');
    const [only] = declarators;
    const value = only?.childForFieldName('value');
    const name = only?.childForFieldName('name');
    // One binding per entity: `const a = () => 1, b = 2` has no single span to give.
    if (declarators.length !== 1 || !value || name?.type !== 'identifier' || !(FUNCTIONS.has(value.type) || CLASSES.has(value.type))) return undefined;
    return { name: name.text, definition: value, outer: node };
  }
  return undefined;
}
