import { parsePython, type PyNode } from './parse-python.js';

/** One doctest example: its `>>>` line, `...` continuations and expected output (1-based, inclusive). */
export interface DoctestExample {
  start: number;
  end: number;
}

/** A bare string statement (a docstring) holding doctest examples, with its examples in order. */
export interface DoctestDocstring {
  /** 1-based lines of the string literal, quotes included. */
  startLine: number;
  endLine: number;
  examples: DoctestExample[];
}

const OPENING_QUOTES = /^[rRuUbBfF]*("""|'''|"|')/;
const PROMPT = /^>>>(?: |$)/;
const CONTINUATION = /^\.\.\.(?: |$)/;

/**
 * The docstrings of a Python module that hold doctest examples (`>>>`), each with its examples.
 * Only bare string statements count (a docstring, or a string on its own line): editing their
 * text cannot change what the code does, only what `doctest` checks. An example runs from its
 * `>>>` line through the `...` lines right after it and the expected output up to a blank line,
 * the next `>>>` or the closing quotes (doctest's own rules).
 */
export function doctestDocstrings(source: string): DoctestDocstring[] {
  if (!source.includes('>>>')) return [];
  const lines = source.split('\n');
  const out: DoctestDocstring[] = [];
  for (const node of bareStrings(parsePython(source).rootNode)) {
    const examples = scanExamples(node, lines);
    if (examples.length > 0) out.push({ startLine: node.startPosition.row + 1, endLine: node.endPosition.row + 1, examples });
  }
  return out;
}

/** Every 1-based line that belongs to a doctest example (prompt, continuation or expected output). */
export function doctestExampleLines(source: string): Set<number> {
  const lines = new Set<number>();
  for (const docstring of doctestDocstrings(source)) {
    for (const example of docstring.examples) for (let n = example.start; n <= example.end; n++) lines.add(n);
  }
  return lines;
}

/**
 * The blank lines inside docstrings that hold examples: deleting or adding one there changes no
 * code and no example (the blank line that ends an example goes with it when it is removed).
 */
export function doctestBlankLines(source: string): Set<number> {
  const lines = source.split('\n');
  const blank = new Set<number>();
  for (const docstring of doctestDocstrings(source)) {
    for (let n = docstring.startLine + 1; n < docstring.endLine; n++) if ((lines[n - 1] ?? '').trim() === '') blank.add(n);
  }
  return blank;
}

function bareStrings(root: PyNode): PyNode[] {
  return root
    .descendantsOfType('expression_statement')
    .filter((statement) => statement.namedChildCount === 1)
    .map((statement) => statement.namedChildren[0]!)
    .filter((child) => child.type === 'string' && child.text.includes('>>>'));
}

// The text of each row inside the literal, quotes and prefix left out.
function rowText(node: PyNode, lines: readonly string[], row: number): string {
  let text = lines[row] ?? '';
  const { startPosition: start, endPosition: end } = node;
  if (row === end.row) text = text.slice(0, end.column).replace(/("""|'''|"|')$/, '');
  if (row === start.row) text = text.slice(start.column).replace(OPENING_QUOTES, '');
  return text;
}

function scanExamples(node: PyNode, lines: readonly string[]): DoctestExample[] {
  const examples: DoctestExample[] = [];
  let current: (DoctestExample & { output: boolean }) | null = null;
  for (let row = node.startPosition.row; row <= node.endPosition.row; row++) {
    const text = rowText(node, lines, row).trim();
    const line = row + 1;
    if (PROMPT.test(text)) {
      current = { start: line, end: line, output: false };
      examples.push(current);
    } else if (current && text === '') {
      current = null;
    } else if (current) {
      // `...` right after the prompt continues the source; after output it is output (an ellipsis).
      if (!CONTINUATION.test(text) || current.output) current.output = true;
      current.end = line;
    }
  }
  return examples.map(({ start, end }) => ({ start, end }));
}
