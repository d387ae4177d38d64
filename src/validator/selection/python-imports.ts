import { parsePython, type PyNode } from '../../code/python/parse-python.js';

/**
 * One import of a Python module, as written: `import a.b` is `{ module: 'a.b', names: null }`;
 * `from ..pkg import x, y` is `{ module: '..pkg', names: ['x', 'y'] }`; `from m import *` has
 * `names: '*'`. Imports anywhere in the file count (inside functions, `try` blocks), since any of
 * them can run when a test does.
 */
export interface PyImport {
  module: string;
  names: string[] | '*' | null;
}

/** The imported name of a `dotted_name` or `aliased_import` node. */
function importedName(node: PyNode): string {
  return node.type === 'aliased_import' ? (node.childForFieldName('name')?.text ?? '') : node.text;
}

/** Every import statement of a module (tree-sitter; a file with syntax errors gives what parses). */
export function pythonImports(source: string): PyImport[] {
  const imports: PyImport[] = [];
  for (const node of parsePython(source).rootNode.descendantsOfType(['import_statement', 'import_from_statement'])) {
    const names = node.childrenForFieldName('name').map(importedName).filter((name) => name !== '');
    if (node.type === 'import_statement') {
      for (const module of names) imports.push({ module, names: null });
      continue;
    }
    const module = node.childForFieldName('module_name')?.text.replace(/\s+/g, '') ?? '';
    if (module === '') continue;
    const wildcard = node.namedChildren.some((child) => child.type === 'wildcard_import');
    imports.push({ module, names: wildcard ? '*' : names });
  }
  return imports;
}
