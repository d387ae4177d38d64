import { createRequire } from 'node:module';
import type Parser from 'tree-sitter';

/** A parsed Python module. */
export type PyTree = Parser.Tree;
/** A node of a parsed Python module. Offsets (`startIndex`, `endIndex`) are JS string indices. */
export type PyNode = Parser.SyntaxNode;

let parser: Parser | undefined;

// One native parser per process: creating one loads the grammar, and parsing is synchronous,
// so sharing it cannot interleave two parses. The native modules load at the first parse: the
// validator imports this module for its import-graph test selection, which most runs never use.
function sharedParser(): Parser {
  if (!parser) {
    const require = createRequire(import.meta.url);
    const TreeSitter = require('tree-sitter') as typeof Parser;
    parser = new TreeSitter();
    parser.setLanguage(require('tree-sitter-python') as Parser.Language);
  }
  return parser;
}

/**
 * Parse Python source. Never throws on bad Python: tree-sitter recovers and marks the damage with
 * ERROR / MISSING nodes, which {@link hasSyntaxErrors} reports.
 *
 * Node offsets are indices into `source` as a JS string (UTF-16 code units), so
 * `source.slice(node.startIndex, node.endIndex) === node.text` holds for any input.
 */
export function parsePython(source: string): PyTree {
  // Handing over bounded chunks is ~2.5x faster than a plain string, for which the binding
  // copies the whole remaining text on every read.
  return sharedParser().parse((index: number) => source.slice(index, index + CHUNK));
}

const CHUNK = 64 * 1024;

/**
 * Whether a tree is not a valid Python module. tree-sitter is more lenient than CPython; on top of
 * its ERROR / MISSING nodes this rejects the one leniency that edits which delete code can cause:
 * a block left with no statement (`if x:` followed by a dedent parses without error).
 */
export function hasSyntaxErrors(tree: PyTree): boolean {
  return tree.rootNode.hasError || hasEmptyBlock(tree);
}

/**
 * Whether a block with no statement intersects the given rows (0-based, inclusive), or anywhere
 * when no rows are given. tree-sitter leaves such a block zero-width at the end of its header line.
 */
export function hasEmptyBlock(tree: PyTree, rows?: { from: number; to: number }): boolean {
  const blocks = rows
    ? tree.rootNode.descendantsOfType('block', { row: rows.from, column: 0 }, { row: rows.to + 1, column: 0 })
    : tree.rootNode.descendantsOfType('block');
  return blocks.some((block) => block.startIndex === block.endIndex || block.namedChildren.every((child) => child.type === 'comment'));
}
