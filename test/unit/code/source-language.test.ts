import { describe, expect, it } from 'vitest';
import { parseSource } from '../../../src/code/parse-source.js';
import { languageOfPath, requireLanguageOfPath } from '../../../src/code/source-language.js';
import { EngineError } from '../../../src/util/engine-error.js';

describe('languageOfPath', () => {
  it.each([
    ['pkg/mod.py', 'python'],
    ['src/a.js', 'javascript'], ['src/a.mjs', 'javascript'], ['src/a.cjs', 'javascript'], ['src/App.jsx', 'javascript'],
    ['src/a.ts', 'typescript'], ['src/a.mts', 'typescript'], ['src/a.cts', 'typescript'], ['src/App.TSX', 'tsx'],
  ])('%s → %s', (path, language) => {
    expect(languageOfPath(path)).toBe(language);
  });

  it('knows no language for other files, and says which extensions it knows', () => {
    expect(languageOfPath('README.md')).toBeUndefined();
    expect(languageOfPath('Makefile')).toBeUndefined();
    expect(() => requireLanguageOfPath('lib/x.rb')).toThrow(EngineError);
    expect(() => requireLanguageOfPath('lib/x.rb')).toThrow(/cannot tell the language of lib\/x\.rb; known extensions: \.py, \.js, .*\.tsx/);
  });
});

describe('parseSource', () => {
  it('parses each language with its own grammar', () => {
    expect(parseSource('def f():\n    return 1\n', 'python').rootNode.type).toBe('module');
    expect(parseSource('const el = <b>{x?.y}</b>;\n', 'javascript').rootNode.hasError).toBe(false);
    expect(parseSource('let n: number = <number>x;\n', 'typescript').rootNode.hasError).toBe(false);
    // `.ts` has no JSX and `.tsx` no angle-bracket casts: picking the grammar by extension matters.
    expect(parseSource('const el = <b>{x}</b>;\n', 'typescript').rootNode.hasError).toBe(true);
    expect(parseSource('const el = <b>{x}</b>;\n', 'tsx').rootNode.hasError).toBe(false);
    expect(parseSource('let n: number = <number>x;\n', 'tsx').rootNode.hasError).toBe(true);
  });

  it('gives node offsets as JS string indices, past non-ASCII text', () => {
    const source = 'const s = "héllo ✓";\nconst n = a ?? b;\n';
    const node = parseSource(source, 'javascript').rootNode.descendantsOfType('binary_expression')[0]!;
    expect(source.slice(node.startIndex, node.endIndex)).toBe('a ?? b');
  });
});
