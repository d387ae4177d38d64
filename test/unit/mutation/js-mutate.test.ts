import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { applyCandidate, listCandidates, pickCandidates } from '../../../src/mutation/mutate.js';
import type { MutationOperator } from '../../../src/mutation/mutation-operator.js';
import { EngineError } from '../../../src/util/engine-error.js';
import { seededRng } from '../../../src/util/seeded-rng.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/javascript');
const cart = readFileSync(join(FIXTURES, 'cart.mjs'), 'utf8');
const ranking = readFileSync(join(FIXTURES, 'ranking.ts'), 'utf8');

/** `node --check` on every text (as ES modules): the indices node rejects, with its first error line. */
function nodeRejects(texts: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-js-mutants-'));
  try {
    return texts.flatMap((text, i) => {
      const file = join(dir, `mutant${i}.mjs`);
      writeFileSync(file, text);
      try {
        execFileSync(process.execPath, ['--check', file], { stdio: 'pipe' });
        return [];
      } catch (error) {
        return [`${i}: ${String((error as { stderr?: Buffer }).stderr).split('\n').find((line) => line.includes('Error')) ?? ''}`];
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** TypeScript's own parser on every text: the indices with a syntax diagnostic. */
function typescriptRejects(texts: string[]): string[] {
  return texts.flatMap((text, i) => {
    const { diagnostics = [] } = ts.transpileModule(text, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
    return diagnostics.length > 0 ? [`${i}: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, '\n')}`] : [];
  });
}

describe('listCandidates on JavaScript / TypeScript', () => {
  it('every candidate of cart.mjs passes node --check, changes the text and adds no comment', () => {
    const candidates = listCandidates(cart, { language: 'javascript' });
    expect(candidates.length).toBeGreaterThan(60);
    const texts = candidates.map((candidate) => applyCandidate(cart, candidate));
    expect(nodeRejects(texts)).toEqual([]);
    expect(new Set(texts).size).toBe(texts.length);
    for (const text of texts) expect(text.match(/\/\//g)?.length ?? 0).toBeLessThanOrEqual(cart.match(/\/\//g)?.length ?? 0);
    // Each JS-specific family has a site in the fixture.
    const operators = new Set(candidates.map((candidate) => candidate.operator));
    for (const name of ['js-nullish-swap', 'js-drop-await', 'js-optional-chaining', 'js-copied-array', 'js-this-binding', 'js-bound-off-by-one', 'js-remove-guard-clause']) {
      expect(operators).toContain(name);
    }
  });

  it('every candidate of ranking.ts parses under TypeScript, and none touches a type, an interface or an enum', () => {
    const candidates = listCandidates(ranking, { language: 'typescript' });
    expect(candidates.length).toBeGreaterThan(40);
    expect(typescriptRejects(candidates.map((candidate) => applyCandidate(ranking, candidate)))).toEqual([]);
    const lines = ranking.split('\n');
    for (const candidate of candidates) expect(lines[candidate.line - 1]).not.toMatch(/^(export (interface|enum)|\s+(id|score|tags\??):|\s+(Asc|Desc) =)/);
  });

  it('drops an edit whose result does not parse, and one that adds a comment', () => {
    const broken: MutationOperator = {
      name: 'test-broken',
      kind: 'operator',
      languages: ['javascript'],
      description: 'proposes one unparsable edit, one comment and one good edit',
      appliesTo: { nodeTypes: ['return_statement'] },
      candidates: (node) => [
        { start: node.startIndex, end: node.endIndex, replacement: 'return (', description: 'unbalanced' },
        { start: node.startIndex, end: node.endIndex, replacement: `${node.text} // the bug`, description: 'comment' },
        { start: node.startIndex, end: node.endIndex, replacement: 'return 0;', description: 'good' },
      ],
    };
    const source = 'function f() {\n  return 1;\n}\n';
    expect(listCandidates(source, { operators: [broken], language: 'javascript' }).map((c) => c.description)).toEqual(['good']);
  });

  it('uses only the operators of the module language, and says so when a named one does not fit', () => {
    const python = listCandidates('def f(a, b):\n    return a < b\n');
    expect(python.map((c) => c.operator)).toEqual(['comparison-swap', 'comparison-swap']);
    const js = listCandidates('function f(a, b) {\n  return a < b;\n}\n', { language: 'javascript' });
    expect(js.map((c) => c.operator)).toEqual(['js-comparison-swap', 'js-comparison-swap']);
    expect(() => listCandidates('x = 1\n', { operators: ['js-drop-await'] })).toThrow(EngineError);
    expect(() => listCandidates('x = 1\n', { operators: ['js-drop-await'] })).toThrow('mutation operator "js-drop-await" applies to javascript, typescript, tsx, not python');
    expect(() => listCandidates('let x = 1;\n', { language: 'javascript', entities: ['f'] })).toThrow('no function, method or class named "f" in this module');
  });

  it('filters by JS entities: a method by `Class.method`, a bound arrow function by its name', () => {
    const source = 'class Box {\n  fits(n) {\n    return n < 3;\n  }\n}\nconst small = (n) => n < 2;\nfunction big(n) {\n  return n > 9;\n}\n';
    const lines = (entities: string[]) => listCandidates(source, { language: 'javascript', operators: ['js-comparison-swap'], entities }).map((c) => c.line);
    expect(lines(['Box.fits'])).toEqual([3, 3]);
    expect(lines(['small', 'big'])).toEqual([6, 6, 8, 8]);
  });

  it('a module that does not parse has no candidates', () => {
    expect(listCandidates('function f( {\n  return 1 < 2;\n}\n', { language: 'javascript' })).toEqual([]);
  });

  it('picks compatible mutations of a TypeScript module, the same for the same seed', () => {
    const a = pickCandidates(ranking, seededRng(7), { count: 3, language: 'typescript' });
    const b = pickCandidates(ranking, seededRng(7), { count: 3, language: 'typescript' });
    expect(a).toEqual(b);
    expect(a).toHaveLength(3);
    let mutated = ranking;
    for (const candidate of [...a].reverse()) mutated = applyCandidate(mutated, candidate);
    expect(typescriptRejects([mutated])).toEqual([]);
  });
});
