import { describe, expect, it } from 'vitest';
import { parseSource } from '../../../../src/code/parse-source.js';
import type { EachStyle } from '../../../../src/policy/procedural/injector/js-each-titles.js';
import { jsTestBlocks, titleText } from '../../../../src/policy/procedural/injector/js-test-blocks.js';

/** The test names jsTestBlocks gives a file (`*`: a part it cannot know). */
function names(source: string, style: EachStyle): string[] {
  return jsTestBlocks(parseSource(source, 'typescript').rootNode, style)
    .filter((block) => !block.group)
    .map((block) => titleText(block.titles, ' > '));
}

// Each row's expected names are what the runners themselves printed for the same calls: Vitest
// 2.1.9 (the tskit image, JSON reporter) and jest-each 29.7.0 and 30.5.2 (identical here).
describe('the titles of it.each / test.each / describe.each tests', () => {
  it.each<[string, string, string[], string[]]>([
    ['printf placeholders, a row per array', "it.each([[1, 2, 3], [-0, 0.5, 'x y']])('adds %i + %d = %s', f);", ['adds 1 + 2 = 3', 'adds 0 + 0.5 = x y'], ['adds 1 + 2 = 3', 'adds 0 + 0.5 = x y']],
    ['a table of single values and the %# index', "it.each([1, 2])('one %d at %#', f);", ['one 1 at 0', 'one 2 at 1'], ['one 1 at 0', 'one 2 at 1']],
    ['$variables of object rows: loupe quotes strings and signs zero, Jest does neither', "test.each([{ a: 1, b: 'x' }, { a: 0, b: 'it' }])('obj $a and $b', f);", ["obj 1 and 'x'", "obj +0 and 'it'"], ['obj 1 and x', 'obj 0 and it']],
    ['%j, %o and %O', "it.each([[1, 'a', true]])('j %j o %o O %O', f);", ["j 1 o 'a' O true"], ["j 1 o 'a' O true"]],
    ['values beyond the placeholders', "it.each([['x', 1]])('more args %s', f);", ['more args x'], ['more args x']],
    ['an escaped %% (Vitest counts it as two placeholders and appends the spare value)', "it.each([[50, 'p']])('100%% of %s', f);", ['100% of 50 p'], ['100% of 50']],
    ['null, undefined and NaN', "it.each([[null, undefined, NaN]])('n %s u %s nan %d', f);", ['n null u undefined nan NaN'], ['n null u undefined nan NaN']],
    ['%f of -0', "it.each([[1.5, -0]])('floats %f %f', f);", ['floats 1.5 -0'], ['floats 1.5 0']],
    ['%d of -0', "it.each([[-0]])('neg zero %d', f);", ['neg zero 0'], ['neg zero -0']],
    ['a $path into a row object', "it.each([{ n: { deep: 1 } }])('deep $n.deep', f);", ['deep 1'], ['deep 1']],
    ['%# before a value', "it.each([[-3, 'q']])('index %# then %s', f);", ['index 0 then -3'], ['index 0 then -3']],
    ["Jest's %p (Vitest has none: it appends the values)", "it.each([['p', 2]])('pretty %p and %p', f);", ['pretty %p and %p p 2'], ['pretty "p" and 2']],
    ['an object rendered by %s: unknown', "test.each([{ a: 1 }])('obj %s via s', f);", ['obj * via s'], ['obj * via s']],
    ['a table that is a name: one pattern', "const table = [[1], [2]];\nit.each(table)('named %i', f);", ['named *'], ['named *']],
    ['a tagged-template table: one pattern', 'it.each`\n  a    | b\n  ${1} | ${2}\n`(\'tagged $a + $b\', f);', ['tagged * + *'], ['tagged * + *']],
    ["Vitest's test.for and it.concurrent.each", "test.for([[3, 4]])('for %i and %i', f);\nit.concurrent.each([[7]])('conc %i', f);", ['for 3 and 4', 'conc 7'], ['for 3 and 4', 'conc 7']],
    ['describe.each: its tests once per row', "describe.each([['g1'], ['g2']])('group %s', () => {\n  it('inner', f);\n});", ['group g1 > inner', 'group g2 > inner'], ['group g1 > inner', 'group g2 > inner']],
  ])('%s', (_label, source, vitest, jest) => {
    expect(names(source, 'vitest')).toEqual(vitest);
    expect(names(source, 'jest')).toEqual(jest);
  });

  it('leaves skipped each calls and computed titles out', () => {
    expect(names("it.skip.each([1])('skipped %d', f);\nit.each([1])(`t ${x}`, f);\nit.each([1])(name, f);", 'vitest')).toEqual([]);
  });
});
