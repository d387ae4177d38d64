import { describe, expect, it } from 'vitest';
import { hasEmptyBlock, hasSyntaxErrors, parsePython } from '../../../../src/code/python/parse-python.js';

describe('parsePython', () => {
  it('parses a module into a tree-sitter tree', () => {
    const tree = parsePython('def f(a):\n    return a < 1\n');
    expect(tree.rootNode.type).toBe('module');
    expect(tree.rootNode.descendantsOfType('comparison_operator').map((n) => n.text)).toEqual(['a < 1']);
    expect(hasSyntaxErrors(tree)).toBe(false);
  });

  it('gives offsets as JS string indices, also after non-ASCII text', () => {
    const source = 'label = "naïve 😀"\nx = a < b\n';
    const node = parsePython(source).rootNode.descendantsOfType('comparison_operator')[0]!;
    expect(source.slice(node.startIndex, node.endIndex)).toBe('a < b');
  });

  it('parses modules larger than one input chunk', () => {
    const source = Array.from({ length: 12000 }, (_, i) => `value_${i} = ${i}  # é`).join('\n') + '\n';
    expect(source.length).toBeGreaterThan(256 * 1024);
    const tree = parsePython(source);
    expect(hasSyntaxErrors(tree)).toBe(false);
    const last = tree.rootNode.descendantsOfType('expression_statement').at(-1)!;
    expect(last.text).toBe('value_11999 = 11999');
    expect(source.slice(last.startIndex, last.endIndex)).toBe(last.text);
  });

  it('keeps offsets right when a chunk boundary splits a surrogate pair', () => {
    const head = 'x = 1\n'.repeat(Math.floor((64 * 1024 - 20) / 6));
    const padding = ' '.repeat(64 * 1024 - head.length - 'y = "'.length - 1);
    // The emoji's two UTF-16 units straddle index 65536.
    const source = `${head}y = "${padding}😀"\nz = a < b\n`;
    expect(source.charCodeAt(64 * 1024 - 1)).toBe(0xd83d);
    const tree = parsePython(source);
    expect(hasSyntaxErrors(tree)).toBe(false);
    const node = tree.rootNode.descendantsOfType('comparison_operator')[0]!;
    expect(source.slice(node.startIndex, node.endIndex)).toBe('a < b');
    expect(node.text).toBe('a < b');
  });

  it.each([
    ['an unclosed bracket', 'x = (1,\n'],
    ['a broken signature', 'def f(:\n    pass\n'],
    ['a header with no body', 'if x:\n'],
    ['a body of only a comment', 'def f():\n    # nothing\nx = 1\n'],
    ['an emptied nested block', 'class A:\n    def f(self):\n        if x:\n        return 1\n'],
  ])('reports %s as a syntax error', (_name, source) => {
    expect(hasSyntaxErrors(parsePython(source))).toBe(true);
  });

  it('finds an empty block only in the rows asked about', () => {
    const tree = parsePython('def f():\n    return 1\n\n\ndef g():\n    if x:\n    return 2\n');
    expect(hasEmptyBlock(tree)).toBe(true);
    expect(hasEmptyBlock(tree, { from: 0, to: 2 })).toBe(false);
    expect(hasEmptyBlock(tree, { from: 5, to: 6 })).toBe(true);
  });
});
