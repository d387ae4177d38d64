import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../../../src/code/parse-source.js';
import type { SourceLanguage } from '../../../src/code/source-language.js';
import { applyCandidate } from '../../../src/mutation/apply-candidates.js';
import { enumerateCandidates } from '../../../src/mutation/enumerate-candidates.js';
import { incrementalReparser } from '../../../src/mutation/incremental-reparse.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/javascript');

describe('incrementalReparser', () => {
  it.each<[string, SourceLanguage]>([['cart.mjs', 'javascript'], ['ranking.ts', 'typescript']])(
    'gives the same tree as a full parse for every proposal of %s, one after another',
    (file, language) => {
      const source = readFileSync(join(FIXTURES, file), 'utf8');
      const proposals = enumerateCandidates(source, parseSource(source, language), { language });
      expect(proposals.length).toBeGreaterThan(40);
      const reparse = incrementalReparser(source, language);
      for (const { candidate } of proposals) {
        const mutated = applyCandidate(source, candidate);
        const incremental = reparse(mutated, candidate, (tree) => tree.rootNode.toString());
        expect(incremental).toBe(parseSource(mutated, language).rootNode.toString());
      }
    },
  );

  it('sees a broken edit as broken and the next good edit as good, past non-ASCII text', () => {
    const source = 'const s = "✓✓✓";\nfunction f(a, b) {\n  return a ?? b;\n}\n';
    const reparse = incrementalReparser(source, 'javascript');
    const at = source.indexOf('??');
    const broken = { start: at, end: at + 2, replacement: '?? (' };
    const good = { start: at, end: at + 2, replacement: '||' };
    const hasError = (edit: typeof good) => reparse(applyCandidate(source, edit), edit, (tree) => tree.rootNode.hasError);
    expect(hasError(broken)).toBe(true);
    expect(hasError(good)).toBe(false);
    expect(hasError(broken)).toBe(true);
  });

  it('parses whole a mutant its edit does not describe, and stays in step for the mutants after it', () => {
    const source = `const x = n.toString();\n${readFileSync(join(FIXTURES, 'cart.mjs'), 'utf8')}`;
    const reparse = incrementalReparser(source, 'javascript');
    const at = source.indexOf('toString');
    // The text got a function's source where the edit claims an empty replacement.
    const text = `${source.slice(0, at)}function toString() { [native code] }${source.slice(at + 8)}`;
    const wrong = { start: at, end: at + 8, replacement: '' };
    expect(reparse(text, wrong, (tree) => tree.rootNode.toString())).toBe(parseSource(text, 'javascript').rootNode.toString());
    for (const { candidate } of enumerateCandidates(source, parseSource(source, 'javascript'), { language: 'javascript' })) {
      const mutated = applyCandidate(source, candidate);
      expect(reparse(mutated, candidate, (tree) => tree.rootNode.toString())).toBe(parseSource(mutated, 'javascript').rootNode.toString());
    }
  });
});
