import { describe, expect, it } from 'vitest';
import { codeFilePool, drawCodeFile, READ_BUDGET_BYTES } from '../../../../src/policy/procedural/injector/code-file-pool.js';
import { seededRng } from '../../../../src/util/seeded-rng.js';

const facts = (files: Record<string, { bytes: number; lines: number; covered?: number }>, withCoverage = true) => ({
  codeFiles: Object.keys(files),
  sourceFiles: new Map(Object.entries(files).map(([path, f]) => [path, { path, bytes: f.bytes, lines: f.lines }])),
  coverage: withCoverage ? new Map(Object.entries(files).map(([path, f]) => [path, new Set(Array.from({ length: f.covered ?? 0 }, (_, i) => i))])) : null,
});

describe('codeFilePool', () => {
  it('keeps a library whose code is one 100 kB module (mock.py), drops files over the budget, tiny or unreached', () => {
    const pool = codeFilePool(facts({
      'mock/mock.py': { bytes: 99_846, lines: 2913, covered: 1500 },
      'mock/__init__.py': { bytes: 334, lines: 9, covered: 9 },
      'mock/backports.py': { bytes: 2808, lines: 89, covered: 0 },
      'huge/gen.py': { bytes: READ_BUDGET_BYTES + 1, lines: 9000, covered: 10 },
    }));
    expect(pool.map((f) => f.path)).toEqual(['mock/mock.py']);
  });

  it('without coverage, keeps every file of 10+ lines within the budget', () => {
    expect(codeFilePool(facts({ 'a.py': { bytes: 500, lines: 20 }, 'b.py': { bytes: 50, lines: 3 } }, false)).map((f) => f.path)).toEqual(['a.py']);
  });
});

describe('drawCodeFile', () => {
  it('never draws past the budget: over a whole read, the bytes drawn stay within it', () => {
    for (let seed = 0; seed < 50; seed++) {
      const pool = codeFilePool(facts({
        'a.py': { bytes: 120_000, lines: 3000, covered: 900 },
        'b.py': { bytes: 90_000, lines: 2000, covered: 900 },
        'c.py': { bytes: 30_000, lines: 800, covered: 300 },
        'd.py': { bytes: 5_000, lines: 100, covered: 50 },
      }));
      const rng = seededRng(seed);
      let left = READ_BUDGET_BYTES;
      const drawn: string[] = [];
      for (let file = drawCodeFile(pool, rng, left); file; file = drawCodeFile(pool, rng, left)) {
        left -= file.bytes;
        drawn.push(file.path);
      }
      expect(left, drawn.join(',')).toBeGreaterThanOrEqual(0);
      expect(drawn.includes('a.py') && drawn.includes('b.py')).toBe(false);
      expect(drawn).toContain('d.py');
    }
  });

  it('is undefined when nothing fits', () => {
    expect(drawCodeFile(codeFilePool(facts({ 'a.py': { bytes: 9_000, lines: 100, covered: 10 } })), seededRng(1), 8_999)).toBeUndefined();
  });
});
