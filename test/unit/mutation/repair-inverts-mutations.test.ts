import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePython, type PyNode } from '../../../src/code/python/parse-python.js';
import { applyCandidate, listCandidates } from '../../../src/mutation/mutate.js';
import { REPAIR_OPERATORS, repairCandidates, type RepairOperator } from '../../../src/mutation/repair-candidates.js';

const ROOT = join(import.meta.dirname, '../../..');

/** Every `.py` file under `dir`, keyed by its path relative to `dir`. */
function pythonFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string): void => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.py')) out.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

/**
 * pyledger's package as its last commit leaves it: the commit overlays applied in order (none
 * deletes a file). Its tests are left out: they hold hundreds of integer literals and would
 * triple the run time for few new shapes of code.
 */
function pyledgerModules(): Map<string, string> {
  const commits = join(ROOT, 'examples/pyledger-src/commits');
  const out = new Map<string, string>();
  for (const commit of readdirSync(commits).sort()) {
    if (existsSync(join(commits, commit, 'deleted.txt'))) throw new Error(`${commit} deletes files: apply its deleted.txt here`);
    const files = join(commits, commit, 'files', 'pyledger');
    if (existsSync(files)) for (const [path, text] of pythonFiles(files)) out.set(`pyledger/${path}`, text);
  }
  return out;
}

/**
 * Shapes the real code above lacks but the catalogue must still invert: `not` in every slot and
 * spelling, the offsets `bound-off-by-one` drops from any kind of index, odd spacing.
 */
const EDGE_SHAPES = `def edges(a, b, c, xs, d, key, cut, row, month, flag, n, i, f, g):
    if not 0 <= a <= 9:
        return 1
    if not (a < b):
        return 2
    if not not flag:
        return 3
    if not -a:
        return 4
    if not (a):
        return 5
    if a and not (b or c):
        return 6
    if a or not (b and c):
        return 7
    elif not (a and b) or c:
        return 8
    y = a if not (b and c) else c
    y = a if not (b < c) else c
    y = a if b and not c else c
    y = a if b and c < d else c
    if not (z := f(a)):
        return z
    if not a + b:
        return 9
    if a * b:
        return 10
    if not (a if b else c):
        return 11
    if not (not a):
        return 12
    if a is not None and not b.ready() and xs[i] > 0:
        return 13
    total = xs[cut - 1] + xs[month - 1] + xs[a * b + 1] + xs[row.slot] + xs[len(xs) - 1]
    total += xs[2 - 1] + d[key] + xs[i+1] + xs[f(a) - 1] + xs[-a - 1] + xs[a - b + 1]
    total -= sum(xs[:n - 1]) + sum(xs[a @ b - 1:]) + sum(xs[cut:-1]) + sum(xs[1:cut + 1])
    for j in range(1, n + 1):
        total *= j
    for j in range(len(xs) - 1, -1, -1):
        total /= j
    while i < n:
        i += 1
    total //= g(a, b) + g(a, b, *c) + g(xs[i], xs[i - 1]) - g(a, (b, c)) ** a
    x = a - -b
    x = a % b << c >> a & b | c
    x = a not in b and b in c or a is b
    if a:
        y = 1
    else:
        y = 2
    return [total, y, 0.5, True, 0, x]
`;

const MODULES = new Map([
  ...pyledgerModules(),
  ...[...pythonFiles(join(ROOT, 'test/fixtures/coverage/sample'))].map(([path, text]) => [`coverage/sample/${path}`, text] as const),
  ['edge-shapes.py', EDGE_SHAPES],
]);

/**
 * The syntax tree of a module with redundant parentheses and all spacing dropped: two texts with the
 * same shape are the same code, spelled differently (`not (a < b)` and `not a < b`, `i + 1` and `i+1`).
 */
function codeShape(source: string): string {
  const shape = (node: PyNode): string => {
    if (node.type === 'parenthesized_expression' && node.namedChildCount === 1) return shape(node.namedChildren[0]!);
    return node.childCount === 0 ? node.text : `(${node.type} ${node.children.map(shape).join(' ')})`;
  };
  return shape(parsePython(source).rootNode);
}

/**
 * Mutations no repair candidate restores to the letter, each with why. Matched against
 * `operator file:line description`; an entry that matches nothing fails the test, so the list
 * never outlives its reason. Where `sameCode` holds, some repair must still give back the same code.
 */
const EXCEPTIONS: readonly { operator: RepairOperator; match: RegExp; sameCode: boolean; reason: string }[] = [
  {
    operator: 'remove-not',
    match: /^remove-not \S+ remove `not` from `not (?!\(|not )/,
    sameCode: true,
    reason: 'the mutated `0 <= x <= 9` cannot tell whether the original read `not 0 <= x <= 9` or `not (0 <= x <= 9)`; '
      + 'the repair spells it `not (...)`, and offering both spellings would cost the Solver a test run for nothing',
  },
  {
    operator: 'remove-not',
    match: /^remove-not \S+ remove `not` from `not \(?not /,
    sameCode: false,
    reason: 'a repair never negates a negation (it would double every `if not x:` line\'s candidates); '
      + 'remove-not\'s `x` does what `not not x` did in a condition',
  },
  {
    operator: 'bound-off-by-one',
    match: /^bound-off-by-one edge-shapes\.py:\d+ bound `i\+1` → `i`$/,
    sameCode: true,
    reason: 'the repair writes `i + 1`: the mutated text no longer tells how the original was spaced',
  },
];

interface Miss {
  where: string;
  /** Whether some repair gives back the original's code, spelled differently. */
  sameCode: boolean;
}

/** Every mutation of `operator` in every module that no repair candidate at its line undoes to the letter. */
function invert(operator: RepairOperator): { mutations: number; misses: Miss[] } {
  let mutations = 0;
  const misses: Miss[] = [];
  for (const [file, source] of MODULES) {
    for (const mutation of listCandidates(source, { operators: [operator] })) {
      mutations++;
      const mutated = applyCandidate(source, mutation);
      const repaired = repairCandidates(mutated, [mutation.line]).map((repair) => applyCandidate(mutated, repair));
      if (repaired.includes(source)) continue;
      const shape = codeShape(source);
      misses.push({ where: `${operator} ${file}:${mutation.line} ${mutation.description}`, sameCode: repaired.some((text) => codeShape(text) === shape) });
    }
  }
  return { mutations, misses };
}

describe('the repair catalogue inverts every operator mutation of real code', () => {
  it('reads the example repo and the coverage fixture', () => {
    expect([...MODULES.keys()]).toEqual(expect.arrayContaining(['pyledger/ledger.py', 'pyledger/interest.py', 'coverage/sample/shop/pricing.py']));
  });

  it('tells the same code spelled differently from different code', () => {
    expect(codeShape('if not 0 <= x <= 9:\n    f(i+1)\n')).toBe(codeShape('if not (0 <= x <= 9):\n    f(i + 1)\n'));
    expect(codeShape('if not (a and b):\n    pass\n')).not.toBe(codeShape('if not a and b:\n    pass\n'));
    expect(codeShape('x = a < b\n')).not.toBe(codeShape('x = a <= b\n'));
  });

  it('repairs with edits the Injector never draws', () => {
    const source = 'def f(items, cut, a):\n    if a + 1:\n        return items[cut]\n    return items[cut - 1]\n';
    const injected = listCandidates(source, { operators: ['negate-condition', 'bound-off-by-one'] }).map((c) => applyCandidate(source, c));
    const repairs = repairCandidates(source, { start: 1, end: 4 }).map((c) => applyCandidate(source, c));
    const repairOnly = [source.replace('if a + 1', 'if not (a + 1)'), source.replace('items[cut]', 'items[cut - 1]')];
    expect(repairs).toEqual(expect.arrayContaining(repairOnly));
    expect(injected.filter((text) => repairOnly.includes(text))).toEqual([]);
    // The Injector still drops the `- 1` the repair puts back.
    expect(injected).toContain(source.replace('items[cut - 1]', 'items[cut]'));
  });

  // Inverse mutation testing: any catalogue mutation at a suspicious line must be undone, to the
  // letter, by one repair candidate for that line (what the procedural Solver relies on).
  it.each(REPAIR_OPERATORS.map((operator) => [operator]))('%s', (operator) => {
    const { mutations, misses } = invert(operator);
    expect(mutations, 'the modules offer this operator no site: the property is not exercised').toBeGreaterThan(0);
    const exceptions = EXCEPTIONS.filter((entry) => entry.operator === operator);
    for (const exception of exceptions) {
      const covered = misses.filter((miss) => exception.match.test(miss.where));
      expect(covered.length, `stale exception ${exception.match}`).toBeGreaterThan(0);
      if (exception.sameCode) expect(covered.filter((miss) => !miss.sameCode).map((miss) => miss.where), 'not even the same code comes back').toEqual([]);
    }
    const unexplained = misses.filter((miss) => !exceptions.some((exception) => exception.match.test(miss.where)));
    expect(unexplained.map((miss) => miss.where), `${misses.length} of ${mutations} mutations not undone`).toEqual([]);
  });
});
