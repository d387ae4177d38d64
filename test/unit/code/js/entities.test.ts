import { describe, expect, it } from 'vitest';
import { extractJsEntities } from '../../../../src/code/js/entities.js';
import { parseSource } from '../../../../src/code/parse-source.js';
import type { SourceLanguage } from '../../../../src/code/source-language.js';

const entities = (source: string, language: SourceLanguage = 'typescript') =>
  extractJsEntities(parseSource(source, language)).map((e) => `${e.kind} ${e.qualifiedName} ${e.startLine}-${e.endLine}`);

describe('extractJsEntities', () => {
  it('finds declarations, bound functions and classes with their methods and arrow fields, outer first', () => {
    const source = [
      'export function parse(text: string): number {', // 1
      '  const helper = (x: string) => Number(x);',
      '  return helper(text);',
      '}',
      'export const format = (n: number): string => {', // 5
      '  return String(n);',
      '};',
      'export default class Cache<K, V> {', // 8
      '  private size = 0;',
      '  onEvict = (key: K) => {',
      '    this.size--;',
      '  };',
      '  get(key: K): V | undefined {',
      '    return undefined;',
      '  }',
      '}',
      'items.forEach(function (item) { use(item); });', // 17: anonymous, no entity
      'let a = () => 1, b = () => 2;', // 18: two bindings, no single span
      '',
    ].join('\n');
    expect(entities(source)).toEqual([
      'function parse 1-4',
      'function parse.<locals>.helper 2-2',
      'function format 5-7',
      'class Cache 8-16',
      'method Cache.onEvict 10-12',
      'method Cache.get 13-15',
    ]);
  });

  it('reads plain JavaScript: generators, class expressions and nested classes', () => {
    const source = 'function* ids() {\n  yield 1;\n}\nconst Point = class {\n  norm() {\n    return 0;\n  }\n};\n';
    expect(entities(source, 'javascript')).toEqual(['function ids 1-3', 'class Point 4-8', 'method Point.norm 5-7']);
  });
});
