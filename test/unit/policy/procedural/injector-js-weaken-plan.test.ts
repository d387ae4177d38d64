import { describe, expect, it } from 'vitest';
import { parseSource } from '../../../../src/code/parse-source.js';
import type { SourceLanguage } from '../../../../src/code/source-language.js';
import { planJsWeakening } from '../../../../src/policy/procedural/injector/weaken-plan-js.js';
import { applyEdit } from '../../../../src/tools/line-match.js';

// node:test / Jest style: describe blocks, concise and block tests, an aliased node:assert.
const SUITE = `import { describe, it } from 'node:test';
import { strict as check } from 'node:assert';
import { add, chunk } from '../src/lib.mjs';

describe('add', () => {
  it('adds small numbers', () => check.equal(add(1, 1), 2));

  // Zero is its own case.
  it('adds zero', () => {
    check.equal(add(0, 0), 0);
    check.equal(
      add(0, 5),
      5,
    );
  });
});

describe('chunk', () => {
  it('splits evenly', () => {
    const parts = chunk([1, 2, 3, 4], 2);
    check.deepEqual(parts, [[1, 2], [3, 4]]);
  });

  describe('remainders', () => {
    it('keeps a shorter last chunk', () => check.deepEqual(chunk([1, 2, 3], 2), [[1, 2], [3]]));
  });
});
`;

/** The file after the plan's edits, made one by one through the edit tool's own matcher. */
function applyPlan(source: string, edits: { search: string; replace: string }[]): string {
  return edits.reduce((text, edit) => {
    const result = applyEdit(text, edit.search, edit.replace);
    if (result.status !== 'edited') throw new Error(`edit does not apply: ${JSON.stringify(result)}`);
    return result.text;
  }, source);
}

function expectParses(text: string, language: SourceLanguage = 'javascript'): void {
  expect(parseSource(text, language).rootNode.hasError).toBe(false);
}

describe('planJsWeakening', () => {
  it('deletes the one assertion a failing line points at when the test keeps another', () => {
    const plan = planJsWeakening(SUITE, 'javascript', [{ qualifiedName: 'add > adds zero', assertLine: 12 }]);
    expect(plan.unresolved).toEqual([]);
    expect(plan.deletedAssertions).toEqual(['add > adds zero:12']);
    expect(plan.deletedTests).toEqual([]);
    const after = applyPlan(SUITE, plan.edits);
    expect(after).toBe(plan.after);
    expect(after).toContain('    check.equal(add(0, 0), 0);\n  });');
    expect(after).not.toContain('add(0, 5)');
    expectParses(after);
  });

  it('deletes a concise test whole, with the comment glued above a deleted test', () => {
    const plan = planJsWeakening(SUITE, 'javascript', [
      { qualifiedName: 'add > adds small numbers', assertLine: 6 },
      { qualifiedName: 'add > adds zero' },
    ]);
    expect(plan.deletedTests).toEqual(['add > adds small numbers', 'add > adds zero', 'add']);
    const after = applyPlan(SUITE, plan.edits);
    // Both tests went, so their describe went too, and nothing of it is left behind.
    expect(after).not.toMatch(/adds|Zero is its own case|describe\('add'/);
    expect(after).toMatch(/^import \{ add, chunk \} from '..\/src\/lib.mjs';\n\ndescribe\('chunk'/m);
    expectParses(after);
  });

  it('deletes a test whose only assertion fails, and a nested describe it empties', () => {
    const plan = planJsWeakening(SUITE, 'javascript', [
      { qualifiedName: 'chunk > splits evenly', assertLine: 21 },
      { qualifiedName: 'chunk > remainders > keeps a shorter last chunk', assertLine: 25 },
    ]);
    expect(plan.deletedAssertions).toEqual([]);
    expect(plan.deletedTests).toEqual(['chunk > splits evenly', 'chunk > remainders > keeps a shorter last chunk', 'chunk > remainders', 'chunk']);
    const after = applyPlan(SUITE, plan.edits);
    expect(after.trimEnd().endsWith('});')).toBe(true);
    expect(after).not.toContain('chunk(');
    expectParses(after);
  });

  it('leaves tests it cannot find or cut out by lines unresolved', () => {
    const oneLine = `import test from 'node:test';\nimport assert from 'node:assert';\ntest('a', () => assert.ok(1)); test('b', () => assert.ok(2));\n`;
    const plan = planJsWeakening(oneLine, 'javascript', [{ qualifiedName: 'b' }, { qualifiedName: 'nowhere' }]);
    expect(plan.unresolved).toEqual(['b', 'nowhere']);
    expect(plan.edits).toEqual([]);
  });

  it('reads tape tests: t.* calls are assertions, t.end() is not, and Mocha titles join with spaces', () => {
    const tape = `const test = require('tape');

test('sums', (t) => {
  t.equal(1 + 1, 2);
  t.deepEqual([1].concat(2), [1, 2], 'concat');
  t.end();
});
`;
    const plan = planJsWeakening(tape, 'javascript', [{ qualifiedName: 'sums', assertLine: 5 }]);
    expect(plan.deletedAssertions).toEqual(['sums:5']);
    expect(plan.after).toContain("  t.equal(1 + 1, 2);\n  t.end();");
    const mocha = `describe('math', function () {\n  it('adds', function () {\n    expect(add(1, 1)).to.equal(2);\n  });\n  it('subtracts', function () {\n    expect(1 - 1).to.equal(0);\n  });\n});\n`;
    const byFullTitle = planJsWeakening(mocha, 'javascript', [{ qualifiedName: 'math adds', assertLine: 3 }], ' ');
    expect(byFullTitle.deletedTests).toEqual(['math adds']);
    expect(byFullTitle.after).toBe(`describe('math', function () {\n  it('subtracts', function () {\n    expect(1 - 1).to.equal(0);\n  });\n});\n`);
  });

  it('weakens TypeScript: expect chains across lines, awaited subtests by their nesting', () => {
    const ts = `import { describe, expect, test } from 'vitest';
import { parse } from '../src/parse';

describe('parse', () => {
  test('reads numbers', async () => {
    const value: number = parse('1');
    expect(value).toBe(1);
    expect(parse('2'))
      .toBe(2);
  });
  test.only('reads words', () => {
    expect(parse('a')).toBe('a');
  });
});
`;
    const plan = planJsWeakening(ts, 'typescript', [{ qualifiedName: 'parse > reads numbers', assertLine: 9 }, { qualifiedName: 'parse > reads words' }]);
    expect(plan.unresolved).toEqual([]);
    expect(plan.deletedAssertions).toEqual(['parse > reads numbers:9']);
    expect(plan.deletedTests).toEqual(['parse > reads words']);
    expect(plan.after).toContain("    expect(value).toBe(1);\n  });\n});");
    expectParses(plan.after, 'typescript');
    const tap = `import t from 'tap';\n\nt.test('outer', async (t) => {\n  await t.test('inner', async (t) => {\n    t.ok(true);\n  });\n  t.pass('outer');\n});\n`;
    const nested = planJsWeakening(tap, 'javascript', [{ qualifiedName: 'outer > inner' }]);
    expect(nested.deletedTests).toEqual(['outer > inner']);
    expect(nested.after).toBe(`import t from 'tap';\n\nt.test('outer', async (t) => {\n  t.pass('outer');\n});\n`);
  });

  describe('it.each / test.each tables', () => {
    const EACH = `import { describe, expect, it, test } from 'vitest';
import { clamp, slug } from '../src/lib';

describe('clamp', () => {
  it.each([
    [5, 0, 10, 5],
    [-1, 0, 10, 0],
    [11, 0, 10, 10],
  ])('clamp(%i, %i, %i) is %i', (value, low, high, expected) => {
    expect(clamp(value, low, high)).toBe(expected);
  });

  it('keeps NaN', () => {
    expect(clamp(NaN, 0, 1)).toBeNaN();
  });
});

test.each([{ text: 'A b', want: 'a-b' }, { text: 'x', want: 'x' }])('slug of $text', ({ text, want }) => {
  expect(slug(text)).toBe(want);
  expect(slug(text).length).toBe(want.length);
});
`;

    it('deletes the failing row of a literal table when it has lines of its own, keeping the others', () => {
      const plan = planJsWeakening(EACH, 'typescript', [{ qualifiedName: 'clamp > clamp(-1, 0, 10) is 0' }]);
      expect(plan.unresolved).toEqual([]);
      expect(plan.deletedTests).toEqual(['clamp > clamp(-1, 0, 10) is 0']);
      const after = applyPlan(EACH, plan.edits);
      expect(after).toContain('    [5, 0, 10, 5],\n    [11, 0, 10, 10],\n  ])');
      expect(after).not.toContain('[-1, 0, 10, 0]');
      expectParses(after, 'typescript');
    });

    it('deletes the whole each call when every row fails, and a describe it empties with it once', () => {
      const rows = ['clamp(5, 0, 10) is 5', 'clamp(-1, 0, 10) is 0', 'clamp(11, 0, 10) is 10'].map((title) => ({ qualifiedName: `clamp > ${title}` }));
      const plan = planJsWeakening(EACH, 'typescript', [...rows, { qualifiedName: 'clamp > keeps NaN' }]);
      expect(plan.unresolved).toEqual([]);
      expect(plan.deletedTests).toEqual(['clamp > keeps NaN', ...rows.map((row) => row.qualifiedName), 'clamp']);
      expect(plan.after).not.toMatch(/clamp\(|describe\('clamp'/);
      expectParses(plan.after, 'typescript');
    });

    it("deletes the whole each call when the failing row shares a line with another (Vitest's quoted $variables)", () => {
      const plan = planJsWeakening(EACH, 'typescript', [{ qualifiedName: "slug of 'A b'" }]);
      expect(plan.deletedTests).toEqual(["slug of 'A b'"]);
      expect(plan.after).not.toContain('test.each');
      expectParses(plan.after, 'typescript');
      // Jest shows the same $variable unquoted: by Jest's rules the Vitest title matches nothing.
      expect(planJsWeakening(EACH, 'typescript', [{ qualifiedName: 'slug of A b' }], ' > ', 'jest').deletedTests).toEqual(['slug of A b']);
      expect(planJsWeakening(EACH, 'typescript', [{ qualifiedName: "slug of 'A b'" }], ' > ', 'jest').unresolved).toEqual(["slug of 'A b'"]);
    });

    it('deletes one assertion of an each test when its failing line points at it', () => {
      const plan = planJsWeakening(EACH, 'typescript', [{ qualifiedName: "slug of 'x'", assertLine: 20 }]);
      expect(plan.deletedAssertions).toEqual(["slug of 'x':20"]);
      expect(plan.after).toContain("  expect(slug(text)).toBe(want);\n});");
      expectParses(plan.after, 'typescript');
    });

    it('matches a table that is not a literal by its title pattern, and deletes the whole call', () => {
      const source = `import { expect, it } from 'vitest';
import { CASES } from './cases';

it.each(CASES)('parses %s as %d', (text, want) => {
  expect(Number(text)).toBe(want);
});

it('parses hex', () => {
  expect(Number('0x10')).toBe(16);
});
`;
      const plan = planJsWeakening(source, 'typescript', [{ qualifiedName: 'parses 0x1 as 1' }]);
      expect(plan.unresolved).toEqual([]);
      expect(plan.deletedTests).toEqual(['parses 0x1 as 1']);
      expect(plan.after).not.toContain('it.each');
      expect(plan.after).toContain("it('parses hex'");
      expectParses(plan.after, 'typescript');
      // An exact title wins over a pattern that also fits it.
      const hex = planJsWeakening(source.replace("'parses hex'", "'parses 0x1 as 1'"), 'typescript', [{ qualifiedName: 'parses 0x1 as 1' }]);
      expect(hex.after).toContain('it.each(CASES)');
      expect(hex.after).not.toContain('0x10');
    });

    it('leaves a name that fits the patterns of two each calls unresolved', () => {
      const source = `it.each(A)('case %s', (a) => {\n  expect(a).toBeTruthy();\n});\n\nit.each(B)('case %s', (b) => {\n  expect(b).toBeTruthy();\n});\n`;
      const plan = planJsWeakening(source, 'javascript', [{ qualifiedName: 'case 1' }]);
      expect(plan.unresolved).toEqual(['case 1']);
      expect(plan.edits).toEqual([]);
    });
  });

  it('finds nested tape tests by their innermost title (the id tape gives them) and deletes every test of that name', () => {
    // qs's shape: t.test subtests inside a top-level test; tape reports "test/parse.js > handles gaps".
    const tape = `var test = require('tape');

test('parse()', function (t) {
  t.test('handles gaps', function (st) {
    st.deepEqual(parse('a[1]=b'), { a: ['b'] });
    st.deepEqual(parse('a[0]=b'), { a: ['b'] });
    st.end();
  });

  t.test('keeps order', function (st) {
    st.deepEqual(parse('a=1&b=2'), { a: '1', b: '2' });
    st.end();
  });

  t.test('handles gaps', function (st) {
    st.equal(parse('').a, undefined);
    st.end();
  });

  t.end();
});
`;
    const byLine = planJsWeakening(tape, 'javascript', [{ qualifiedName: 'handles gaps', assertLine: 6 }], ' > ', 'vitest', true);
    expect(byLine.deletedAssertions).toEqual(['handles gaps:6']);
    expect(byLine.after).toContain("    st.deepEqual(parse('a[1]=b'), { a: ['b'] });\n    st.end();");
    expect(byLine.after).not.toContain("parse('a[0]=b')");
    const whole = planJsWeakening(tape, 'javascript', [{ qualifiedName: 'handles gaps' }], ' > ', 'vitest', true);
    expect(whole.unresolved).toEqual([]);
    expect(whole.deletedTests).toEqual(['handles gaps']);
    expect(whole.after).toBe(`var test = require('tape');

test('parse()', function (t) {
  t.test('keeps order', function (st) {
    st.deepEqual(parse('a=1&b=2'), { a: '1', b: '2' });
    st.end();
  });

  t.end();
});
`);
    expectParses(whole.after, 'javascript');
    // Joined titles are not a tape id: nothing of that name.
    expect(planJsWeakening(tape, 'javascript', [{ qualifiedName: 'parse() > handles gaps' }], ' > ', 'vitest', true).unresolved).toEqual(['parse() > handles gaps']);
  });

  it('finds tests called through the name a file gives tape or node:test (path-browserify calls them tape(...))', () => {
    const tape = `'use strict';
var tape = require('tape');
var path = require('../');

tape('path.posix.join', function (t) {
  t.strictEqual(path.join('a', 'b'), 'a/b');
  t.end();
});

tape('path.win32.join', { skip: true }, function (t) {
  t.end();
});
`;
    const plan = planJsWeakening(tape, 'javascript', [{ qualifiedName: 'path.posix.join', assertLine: 6 }], ' > ', 'vitest', true);
    expect(plan.unresolved).toEqual([]);
    expect(plan.deletedTests).toEqual(['path.posix.join']);
    expect(plan.after).toBe(`'use strict';
var tape = require('tape');
var path = require('../');

tape('path.win32.join', { skip: true }, function (t) {
  t.end();
});
`);
    const esm = `import check from 'node:test';\nimport assert from 'node:assert';\n\ncheck('adds', () => {\n  assert.equal(1 + 1, 2);\n});\n`;
    expect(planJsWeakening(esm, 'javascript', [{ qualifiedName: 'adds' }]).deletedTests).toEqual(['adds']);
    // A call of some other function by that shape is no test.
    const other = `var run = require('./helpers');\n\nrun('adds', function (t) {\n  t.end();\n});\n`;
    expect(planJsWeakening(other, 'javascript', [{ qualifiedName: 'adds' }], ' > ', 'vitest', true).unresolved).toEqual(['adds']);
  });
});
