import { describe, expect, it } from 'vitest';
import { hasSyntaxErrors, parsePython } from '../../../src/code/python/parse-python.js';
import { applyCandidate, listCandidates } from '../../../src/mutation/mutate.js';
import { MUTATION_OPERATORS } from '../../../src/mutation/registry.js';

/** Every mutated version an operator yields for `source`, in candidate order. */
function mutants(operator: string, source: string): string[] {
  return listCandidates(source, { operators: [operator] }).map((candidate) => applyCandidate(source, candidate));
}

// [operator, source, every expected mutant in order]. Sources are small functions so each row
// shows exactly where an operator applies.
const ROWS: [string, string, string[]][] = [
  ['comparison-swap', 'def f(a, b):\n    return a < b\n', ['def f(a, b):\n    return a <= b\n', 'def f(a, b):\n    return a >= b\n']],
  ['comparison-swap', 'def f(a, b):\n    return a == b\n', ['def f(a, b):\n    return a != b\n']],
  ['comparison-swap', 'def f(a, b):\n    return a is not b\n', ['def f(a, b):\n    return a is b\n']],
  ['comparison-swap', 'def f(a, b):\n    return a not in b\n', ['def f(a, b):\n    return a in b\n']],
  ['comparison-swap', 'def f(a, b, c):\n    return a < b >= c\n', [
    'def f(a, b, c):\n    return a <= b >= c\n',
    'def f(a, b, c):\n    return a >= b >= c\n',
    'def f(a, b, c):\n    return a < b > c\n',
    'def f(a, b, c):\n    return a < b < c\n',
  ]],
  ['comparison-swap', 'def f(a, b):\n    return a + b\n', []],
  ['boolean-swap', 'def f(a, b):\n    return a and b\n', ['def f(a, b):\n    return a or b\n']],
  ['boolean-swap', 'def f(a, b):\n    return a or b\n', ['def f(a, b):\n    return a and b\n']],
  ['boolean-swap', 'def f(a):\n    return not a\n', []],
  ['negate-condition', 'def f(x):\n    if x:\n        return 1\n    return 2\n', ['def f(x):\n    if not x:\n        return 1\n    return 2\n']],
  ['negate-condition', 'def f(a, b):\n    if a < b:\n        return 1\n    return 2\n', ['def f(a, b):\n    if not (a < b):\n        return 1\n    return 2\n']],
  ['negate-condition', 'def f(a, b):\n    if a and b.ok():\n        return 1\n    return 2\n', [
    'def f(a, b):\n    if not a and b.ok():\n        return 1\n    return 2\n',
    'def f(a, b):\n    if not (a and b.ok()):\n        return 1\n    return 2\n',
    'def f(a, b):\n    if a and not b.ok():\n        return 1\n    return 2\n',
  ]],
  ['negate-condition', 'def f(x):\n    return 1 if x.ready else 2\n', ['def f(x):\n    return 1 if not x.ready else 2\n']],
  // `while` conditions are left alone (a negated loop condition mostly hangs), and so are plain values.
  ['negate-condition', 'def f(x):\n    while x:\n        x -= 1\n    return x\n', []],
  ['remove-not', 'def f(x):\n    if not x:\n        return 1\n    return 2\n', ['def f(x):\n    if x:\n        return 1\n    return 2\n']],
  ['remove-not', 'def f(a, b):\n    if not (a < b):\n        return 1\n    return 2\n', [
    'def f(a, b):\n    if (a < b):\n        return 1\n    return 2\n',
    'def f(a, b):\n    if a < b:\n        return 1\n    return 2\n',
  ]],
  // Inside `and`/`or` the parentheses of a nested `or` must stay, or the condition would regroup.
  ['remove-not', 'def f(a, b, c):\n    if a and not (b or c):\n        return 1\n    return 2\n', ['def f(a, b, c):\n    if a and (b or c):\n        return 1\n    return 2\n']],
  ['remove-not', 'def f(x):\n    return not x\n', []],
  ['arithmetic-swap', 'def f(a, b):\n    return a + b\n', ['def f(a, b):\n    return a - b\n']],
  ['arithmetic-swap', 'def f(a, b):\n    return a / b\n', ['def f(a, b):\n    return a * b\n', 'def f(a, b):\n    return a // b\n']],
  ['arithmetic-swap', 'def f(a, b):\n    return a // b\n', ['def f(a, b):\n    return a / b\n']],
  ['arithmetic-swap', 'def f(a, b):\n    return a * b\n', ['def f(a, b):\n    return a / b\n', 'def f(a, b):\n    return a ** b\n']],
  // A string operand would only ever raise TypeError.
  ['arithmetic-swap', 'def f(a):\n    return "x" + a\n', []],
  ['arithmetic-swap', 'def f(a, b):\n    return a % b\n', []],
  ['augmented-assignment-swap', 'def f(a):\n    a += 2\n    return a\n', ['def f(a):\n    a -= 2\n    return a\n']],
  ['augmented-assignment-swap', 'def f(a):\n    a //= 2\n    return a\n', ['def f(a):\n    a /= 2\n    return a\n']],
  ['augmented-assignment-swap', 'def f(a):\n    a += [1]\n    return a\n', []],
  ['integer-off-by-one', 'def f(xs):\n    return xs[1]\n', ['def f(xs):\n    return xs[2]\n', 'def f(xs):\n    return xs[0]\n']],
  ['integer-off-by-one', 'def f(xs):\n    return xs[0]\n', ['def f(xs):\n    return xs[1]\n']],
  // `i - 0` and `-0` are no plausible bugs; hex literals are left alone.
  ['integer-off-by-one', 'def f(i):\n    return i - 1\n', ['def f(i):\n    return i - 2\n']],
  ['integer-off-by-one', 'def f(xs):\n    return xs[-1]\n', ['def f(xs):\n    return xs[-2]\n']],
  ['integer-off-by-one', 'def f():\n    return 0xff\n', []],
  ['bound-off-by-one', 'def f(n):\n    return list(range(n))\n', ['def f(n):\n    return list(range(n + 1))\n', 'def f(n):\n    return list(range(n - 1))\n']],
  ['bound-off-by-one', 'def f(xs):\n    return range(1, len(xs) - 1)\n', ['def f(xs):\n    return range(1, len(xs))\n']],
  ['bound-off-by-one', 'def f(xs, i):\n    return xs[i:]\n', ['def f(xs, i):\n    return xs[i + 1:]\n', 'def f(xs, i):\n    return xs[i - 1:]\n']],
  ['bound-off-by-one', 'def f(xs, i):\n    return xs[i + 1]\n', ['def f(xs, i):\n    return xs[i]\n']],
  // A mapping key is not a position.
  ['bound-off-by-one', 'def f(d, key):\n    return d[key]\n', []],
  ['swap-arguments', 'def f(a, b):\n    return divmod(a, b)\n', ['def f(a, b):\n    return divmod(b, a)\n']],
  ['swap-arguments', 'def f(a, b, c):\n    return g(a, b, c, key=1)\n', ['def f(a, b, c):\n    return g(b, a, c, key=1)\n', 'def f(a, b, c):\n    return g(a, c, b, key=1)\n']],
  ['swap-arguments', 'def f(a, b):\n    return g(a, *b, k=a)\n', []],
  ['constant-change', 'def f(strict=True):\n    return False\n', ['def f(strict=False):\n    return False\n', 'def f(strict=True):\n    return True\n']],
  ['constant-change', 'def f():\n    return 0.5\n', ['def f():\n    return 1.5\n']],
  ['constant-change', 'def f():\n    return 2.25\n', ['def f():\n    return 3.25\n', 'def f():\n    return 1.25\n']],
  ['string-literal', 'def f(xs):\n    return "".join(xs)\n', ['def f(xs):\n    return " ".join(xs)\n']],
  ['string-literal', "def f(x):\n    return x.split(',')\n", ["def f(x):\n    return x.split('')\n"]],
  // Docstrings, f-strings and error messages are left alone.
  ['string-literal', 'def f(x):\n    """Doc."""\n    if x:\n        raise ValueError("bad")\n    return f"{x}"\n', []],
  ['invert-if-else', 'def f(x):\n    if x:\n        y = 1\n    else:\n        y = 2\n    return y\n', ['def f(x):\n    if x:\n        y = 2\n    else:\n        y = 1\n    return y\n']],
  ['invert-if-else', 'def f(x):\n    return "a" if x else "b"\n', ['def f(x):\n    return "b" if x else "a"\n']],
  ['invert-if-else', 'def f(x):\n    if x:\n        y = 1\n    elif x is None:\n        y = 2\n    else:\n        y = 3\n    return y\n', []],
  ['remove-else-branch', 'def f(x):\n    if x:\n        y = 1\n    elif x is None:\n        y = 2\n    else:\n        y = 3\n    return y\n', [
    'def f(x):\n    if x:\n        y = 1\n    else:\n        y = 3\n    return y\n',
    'def f(x):\n    if x:\n        y = 1\n    elif x is None:\n        y = 2\n    return y\n',
  ]],
  ['remove-guard-clause', 'def f(x):\n    if x is None:\n        return 0\n    return x * 2\n', ['def f(x):\n    return x * 2\n']],
  ['remove-guard-clause', 'def f(x):\n    # Reject negatives early.\n    if x < 0:\n        raise ValueError("negative")\n    return x\n', ['def f(x):\n    return x\n']],
  // Not a guard: it is the last statement, or it does more than exit.
  ['remove-guard-clause', 'def f(x):\n    y = x\n    if x:\n        return 1\n', []],
  ['remove-guard-clause', 'def f(x):\n    if x:\n        log(x)\n        return 1\n    return 2\n', []],
];

describe('mutation operators', () => {
  it.each(ROWS)('%s on %j', (operator, source, expected) => {
    const out = mutants(operator, source);
    expect(out).toEqual(expected);
    for (const mutated of out) expect(hasSyntaxErrors(parsePython(mutated))).toBe(false);
  });

  it('has unique kebab-case names and a row for every Python operator', () => {
    const names = MUTATION_OPERATORS.map((operator) => operator.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
    // The JavaScript / TypeScript operators have their rows in js-operators.test.ts.
    const python = MUTATION_OPERATORS.filter((operator) => operator.languages.includes('python')).map((operator) => operator.name);
    expect(python.length).toBeGreaterThan(0);
    const covered = new Set([...ROWS.map(([name]) => name), 'remove-function-body', 'remove-loop', 'remove-statement', 'remove-if-block']);
    expect(python.filter((name) => !covered.has(name))).toEqual([]);
  });

  it('leaves `if __name__ == "__main__"` blocks, annotations and __all__ alone', () => {
    const source = '__all__ = ["f"]\n\ndef f(x: "Tuple[int, 2]") -> bool:\n    return x\n\nif __name__ == "__main__":\n    print(f(1 < 2))\n';
    expect(listCandidates(source)).toEqual([]);
  });
});
