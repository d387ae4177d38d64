import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractEntities, type EntityTag, type PythonEntity } from '../../../../src/code/python/entities.js';

const inventory = readFileSync(join(import.meta.dirname, '../../../fixtures/python/inventory.py'), 'utf8');

describe('extractEntities', () => {
  const entities = extractEntities(inventory);
  const byName = (name: string) => entities.find((entity) => entity.qualifiedName === name);

  it('lists functions, methods and classes in source order', () => {
    expect(entities.map((e) => `${e.kind} ${e.qualifiedName}`)).toEqual([
      'class Item', 'method Item.value', 'method Item.is_low', 'class Inventory', 'method Inventory.__init__',
      'method Inventory.add', 'method Inventory.get', 'method Inventory.remove_stock', 'method Inventory.restock',
      'method Inventory.total_value', 'method Inventory.low_stock', 'method Inventory.search', 'function plan_restock',
      'function batches', 'function stock_level',
    ]);
  });

  // [qualified name, start line, end line, complexity, tags]
  it.each<[string, number, number, number, EntityTag[]]>([
    ['Item', 13, 27, 1, ['has-return', 'has-binary-op', 'has-comparison', 'has-call']],
    ['Item.value', 21, 24, 1, ['has-return', 'has-binary-op', 'is-property']],
    ['Inventory.__init__', 33, 35, 1, ['is-dunder']],
    ['Inventory.remove_stock', 45, 54, 2, ['has-if', 'has-return', 'has-comparison', 'has-call', 'has-augmented-assignment']],
    ['Inventory.low_stock', 69, 76, 4, ['has-loop', 'has-if', 'has-return', 'has-comparison', 'has-boolean-op', 'has-call']],
    ['plan_restock', 83, 97, 6, [
      'has-loop', 'has-if', 'has-return', 'has-binary-op', 'has-comparison', 'has-call', 'has-augmented-assignment',
      'has-comprehension', 'has-subscript',
    ]],
    ['stock_level', 107, 115, 3, ['has-if', 'has-if-else', 'has-return', 'has-comparison', 'has-call']],
  ])('%s: lines %i–%i, complexity %i, tags', (name, startLine, endLine, complexity, tags) => {
    const entity = byName(name) as PythonEntity;
    expect({ startLine: entity.startLine, endLine: entity.endLine, complexity: entity.complexity, tags: entity.tags })
      .toEqual({ startLine, endLine, complexity, tags });
    expect(entity.body.type).toBe('block');
  });

  it('names nested and conditionally defined code like __qualname__ and tags it', () => {
    const source = [
      'import sys',
      'if sys.version_info >= (3, 8):',
      '    def compat():',
      '        return 1',
      'class TestThing:',
      '    @staticmethod',
      '    def helper(x):',
      '        def inner(y):',
      '            yield y',
      '        return inner',
      '    @classmethod',
      '    def build(cls): return cls()',
      '    async def test_run(self):',
      '        await go()',
      '    @name.setter',
      '    def name(self, v): self._n = v',
      'def test_top():',
      '    assert not compat() or 1',
      '',
    ].join('\n');
    const found = extractEntities(source).map((e) => [e.qualifiedName, e.kind, e.tags.join(' ')]);
    expect(found).toEqual([
      ['compat', 'function', 'has-return'],
      ['TestThing', 'class', 'has-return has-call is-test'],
      ['TestThing.helper', 'method', 'has-return is-test is-staticmethod'],
      ['TestThing.helper.<locals>.inner', 'function', 'is-generator is-nested'],
      ['TestThing.build', 'method', 'has-return has-call is-test is-classmethod'],
      ['TestThing.test_run', 'method', 'has-call is-test is-async'],
      ['TestThing.name', 'method', 'is-test is-property'],
      ['test_top', 'function', 'has-boolean-op has-not has-call is-test'],
    ]);
  });

  it('accepts a parsed tree as well as text', async () => {
    const { parsePython } = await import('../../../../src/code/python/parse-python.js');
    expect(extractEntities(parsePython(inventory)).map((e) => e.qualifiedName)).toEqual(entities.map((e) => e.qualifiedName));
  });
});
