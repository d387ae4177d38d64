import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../../../src/code/parse-source.js';
import type { SourceLanguage } from '../../../src/code/source-language.js';
import { applyCandidate, listCandidates } from '../../../src/mutation/mutate.js';
import { MUTATION_OPERATORS } from '../../../src/mutation/registry.js';

/** Every mutated version an operator yields for `source`, in candidate order. */
function mutants(operator: string, source: string, language: SourceLanguage): string[] {
  return listCandidates(source, { operators: [operator], language }).map((candidate) => applyCandidate(source, candidate));
}

const js = 'javascript';
const ts = 'typescript';

// [operator, language, source, every expected mutant in order].
const ROWS: [string, SourceLanguage, string, string[]][] = [
  ['js-comparison-swap', js, 'function inRange(x, max) {\n  return x < max;\n}\n', ['function inRange(x, max) {\n  return x <= max;\n}\n', 'function inRange(x, max) {\n  return x >= max;\n}\n']],
  ['js-comparison-swap', ts, 'export function same(a: string, b: string): boolean {\n  return a === b;\n}\n', ['export function same(a: string, b: string): boolean {\n  return a !== b;\n}\n']],
  ['js-comparison-swap', js, 'const total = a + b;\n', []],
  ['js-loose-equality', js, 'if (value === null) {\n  reset();\n}\n', ['if (value == null) {\n  reset();\n}\n']],
  ['js-loose-equality', ts, 'const changed: boolean = prev != next;\n', ['const changed: boolean = prev !== next;\n']],
  ['js-logical-swap', js, 'const ok = user && user.active;\n', ['const ok = user || user.active;\n']],
  ['js-nullish-swap', ts, 'const port: number = options.port ?? 8080;\n', ['const port: number = options.port || 8080;\n']],
  ['js-nullish-swap', js, 'const name = input || "anon";\n', ['const name = input ?? "anon";\n']],
  // `a ?? b ?? c` → `a ?? b || c` would be a SyntaxError that tree-sitter accepts: never proposed.
  ['js-nullish-swap', js, 'const v = a ?? b ?? c;\n', []],
  ['js-nullish-swap', js, 'const v = a || b && c;\n', []],
  ['js-negate-condition', js, 'if (cache.has(key)) {\n  return cache.get(key);\n}\n', ['if (!cache.has(key)) {\n  return cache.get(key);\n}\n']],
  ['js-negate-condition', ts, 'const sign = (x: number) => (x < 0 ? -1 : 1);\n', ['const sign = (x: number) => (!(x < 0) ? -1 : 1);\n']],
  ['js-negate-condition', js, 'if (a && b.ok) {\n  go();\n}\n', ['if (!a && b.ok) {\n  go();\n}\n', 'if (!(a && b.ok)) {\n  go();\n}\n', 'if (a && !b.ok) {\n  go();\n}\n']],
  ['js-negate-condition', js, 'while (queue.length) {\n  queue.pop();\n}\n', []],
  ['js-remove-not', js, 'if (!seen.has(id)) {\n  seen.add(id);\n}\n', ['if (seen.has(id)) {\n  seen.add(id);\n}\n']],
  ['js-remove-not', js, 'if (!!flag) {\n  go();\n}\n', []],
  ['js-arithmetic-swap', js, 'const mid = (lo + hi) >> 1;\n', ['const mid = (lo - hi) >> 1;\n', 'const mid = (lo + hi) << 1;\n']],
  ['js-arithmetic-swap', ts, 'let total: number = 0;\nfor (const x of xs) total += x;\n', ['let total: number = 0;\nfor (const x of xs) total -= x;\n']],
  ['js-arithmetic-swap', js, 'const label = "n=" + count;\n', []],
  ['js-integer-off-by-one', js, 'const last = items[items.length - 1];\n', ['const last = items[items.length - 2];\n']],
  ['js-integer-off-by-one', ts, 'const retries: number = 3;\nconst mask = 0xff;\n', ['const retries: number = 4;\nconst mask = 0xff;\n', 'const retries: number = 2;\nconst mask = 0xff;\n']],
  ['js-bound-off-by-one', js, 'const head = text.slice(0, limit);\n', ['const head = text.slice(0, limit + 1);\n', 'const head = text.slice(0, limit - 1);\n']],
  ['js-bound-off-by-one', ts, 'const tail: string = s.substring(start + 1);\n', ['const tail: string = s.substring(start);\n']],
  ['js-bound-off-by-one', js, 'for (let i = 0; i < xs.length; i++) {\n  use(xs[i]);\n}\n', [
    'for (let i = 0; i < xs.length + 1; i++) {\n  use(xs[i]);\n}\n',
    'for (let i = 0; i < xs.length - 1; i++) {\n  use(xs[i]);\n}\n',
  ]],
  ['js-bound-off-by-one', js, 'const parts = line.split(sep);\n', []],
  ['js-swap-arguments', js, 'const diff = subtract(total, paid);\n', ['const diff = subtract(paid, total);\n']],
  ['js-swap-arguments', ts, 'const d = new Date(year, month);\nlog(...args, x);\n', ['const d = new Date(month, year);\nlog(...args, x);\n']],
  ['js-drop-await', ts, 'async function save(db: Db, row: Row): Promise<void> {\n  await db.insert(row);\n  done();\n}\n', [
    'async function save(db: Db, row: Row): Promise<void> {\n  db.insert(row);\n  done();\n}\n',
  ]],
  ['js-drop-await', js, 'async function f() {\n  for await (const x of stream) use(x);\n}\n', []],
  ['js-optional-chaining', js, 'const city = user?.address.city;\n', ['const city = user.address.city;\n', 'const city = user?.address?.city;\n']],
  ['js-optional-chaining', js, 'const first = list?.[0];\nconst r = cb?.();\n', ['const first = list[0];\nconst r = cb?.();\n', 'const first = list?.[0];\nconst r = cb();\n']],
  ['js-optional-chaining', ts, 'const n: number = config.retries;\n', ['const n: number = config?.retries;\n']],
  // Writes, `new`, `this`, namespaces and literals get no `?.`.
  ['js-optional-chaining', js, 'a.b.c = 1;\nconst d = new lib.Date();\nthis.x = Math.max(1, 2);\nconst n = [1].length;\n', []],
  ['js-copied-array', js, 'const sorted = [...scores].sort((a, b) => b - a);\n', ['const sorted = scores.sort((a, b) => b - a);\n']],
  ['js-copied-array', ts, 'const rev: string[] = names.slice().reverse();\n', ['const rev: string[] = names.reverse();\n']],
  ['js-copied-array', js, 'const s = Array.from(set).sort();\nconst t = xs.toSorted();\n', ['const s = set.sort();\nconst t = xs.toSorted();\n', 'const s = Array.from(set).sort();\nconst t = xs.sort();\n']],
  ['js-copied-array', js, 'const s = [...a, ...b].sort();\n', []],
  ['js-this-binding', js, 'class Clock {\n  start() {\n    this.id = setInterval(this.tick.bind(this), 1000);\n  }\n}\n', [
    'class Clock {\n  start() {\n    this.id = setInterval(this.tick, 1000);\n  }\n}\n',
  ]],
  ['js-this-binding', ts, 'class Scaler {\n  scale = 2;\n  apply(xs: number[]): number[] {\n    return xs.map((x: number): number => this.scale * x);\n  }\n}\n', [
    'class Scaler {\n  scale = 2;\n  apply(xs: number[]): number[] {\n    return xs.map(function (x: number): number { return this.scale * x; });\n  }\n}\n',
  ]],
  ['js-this-binding', js, 'const inc = (x) => x + 1;\n', []],
  ['js-remove-guard-clause', ts, 'function div(a: number, b: number): number {\n  // no division by zero\n  if (b === 0) throw new RangeError("b");\n  return a / b;\n}\n', [
    'function div(a: number, b: number): number {\n  return a / b;\n}\n',
  ]],
  ['js-remove-guard-clause', js, 'function f(x) {\n  if (x) {\n    return 1;\n  }\n}\n', []],
  ['js-remove-if-block', js, 'function f(opts) {\n  if (opts.debug) {\n    log(opts);\n  }\n  run(opts);\n}\n', ['function f(opts) {\n  run(opts);\n}\n']],
  // The JSDoc's @returns type picks the stand-in; the comment inside the body goes with it.
  ['js-remove-function-body', js, '/**\n * @returns {number[]}\n */\nexport function evens(xs) {\n  // keep the even ones\n  const out = [];\n  for (const x of xs) if (x % 2 === 0) out.push(x);\n  return out;\n}\n', [
    '/**\n * @returns {number[]}\n */\nexport function evens(xs) {\n  return [];\n}\n',
  ]],
  // Constructors stay; Promise<number> reads as number; a void method gets an empty body.
  ['js-remove-function-body', ts, 'class Box {\n  constructor(n: number) {\n    this.n = n;\n    this.m = 2;\n  }\n  async size(): Promise<number> {\n    const n = this.n;\n    return n * 2;\n  }\n  log(): void {\n    console.log(1);\n    console.log(2);\n  }\n}\n', [
    'class Box {\n  constructor(n: number) {\n    this.n = n;\n    this.m = 2;\n  }\n  async size(): Promise<number> {\n    return 0;\n  }\n  log(): void {\n    console.log(1);\n    console.log(2);\n  }\n}\n',
    'class Box {\n  constructor(n: number) {\n    this.n = n;\n    this.m = 2;\n  }\n  async size(): Promise<number> {\n    const n = this.n;\n    return n * 2;\n  }\n  log(): void {}\n}\n',
  ]],
  // Without types, what the body returns tells (`clean.join(...)` is a string); one-line bodies stay.
  ['js-remove-function-body', js, 'const join = (parts) => {\n  const clean = parts.filter(Boolean);\n  return clean.join("-");\n};\nconst one = (x) => { return x; };\n', [
    "const join = (parts) => {\n  return '';\n};\nconst one = (x) => { return x; };\n",
  ]],
  // `super()` and declarations stay; a trailing comment goes with its statement; two-statement blocks are left alone.
  ['js-remove-statement', js, 'class A extends B {\n  constructor() {\n    super();\n    this.x = 1;\n  }\n}\nfunction f(cache, k) {\n  const v = k * 2;\n  cache.set(k, v); // store\n  return v;\n}\nfunction g() {\n  a();\n  b();\n}\n', [
    'class A extends B {\n  constructor() {\n    super();\n    this.x = 1;\n  }\n}\nfunction f(cache, k) {\n  const v = k * 2;\n  return v;\n}\nfunction g() {\n  a();\n  b();\n}\n',
  ]],
  ['js-remove-statement', ts, 'function tally(xs: number[]): number {\n  let total = 0;\n  for (const x of xs) {\n    total += x;\n    seen++;\n    log(x);\n  }\n  return total;\n}\n', [
    'function tally(xs: number[]): number {\n  let total = 0;\n  for (const x of xs) {\n    seen++;\n    log(x);\n  }\n  return total;\n}\n',
    'function tally(xs: number[]): number {\n  let total = 0;\n  for (const x of xs) {\n    total += x;\n    log(x);\n  }\n  return total;\n}\n',
    'function tally(xs: number[]): number {\n  let total = 0;\n  for (const x of xs) {\n    total += x;\n    seen++;\n  }\n  return total;\n}\n',
  ]],
  ['js-remove-else-branch', js, 'if (a) {\n  x();\n} else if (b) {\n  y();\n} else {\n  z();\n}\n', [
    'if (a) {\n  x();\n}\n',
    'if (a) {\n  x();\n} else if (b) {\n  y();\n}\n',
  ]],
];

describe('JavaScript / TypeScript mutation operators', () => {
  it.each(ROWS)('%s (%s) on %j', (operator, language, source, expected) => {
    const out = mutants(operator, source, language);
    expect(out).toEqual(expected);
    for (const mutated of out) expect(parseSource(mutated, language).rootNode.hasError).toBe(false);
  });

  it('has a row for every JavaScript operator, and each covers javascript, typescript and tsx', () => {
    const jsOperators = MUTATION_OPERATORS.filter((operator) => operator.languages.includes('javascript'));
    const covered = new Set(ROWS.map(([name]) => name));
    expect(jsOperators.map((operator) => operator.name).filter((name) => !covered.has(name))).toEqual([]);
    for (const operator of jsOperators) expect(operator.languages).toEqual(['javascript', 'typescript', 'tsx']);
  });

  it('takes no inherited Object property (toString) for a copying twin, and keeps the checks after it in step', () => {
    // Object.prototype.toString once passed for the twin of `toString`: a function for a replacement, whose
    // length put the incremental re-parse out of step with the text, so most later valid mutants failed the check.
    const module = readFileSync(join(import.meta.dirname, '../../fixtures/javascript/cart.mjs'), 'utf8');
    const alone = listCandidates(module, { language: js }).map((c) => `${c.operator}@${c.line + 1}:${c.replacement}`);
    const after = listCandidates(`const s = n.toString();\n${module}`, { language: js });
    expect(alone.length).toBeGreaterThan(40);
    expect(after.filter((c) => c.line > 1).map((c) => `${c.operator}@${c.line}:${c.replacement}`)).toEqual(alone);
    expect(after.filter((c) => c.line === 1).map((c) => c.operator)).toEqual(['js-optional-chaining']);
  });

  it('mutates TSX with the tsx grammar and leaves types, interfaces and imports alone', () => {
    const source = [
      'import { x } from "./x.js";',
      'interface Props { max: 1 | 2; }',
      'type Pair = [number, 2];',
      'export const Badge = (p: Props) => <span>{p.count > 1 ? "many" : "one"}</span>;',
      '',
    ].join('\n');
    const out = listCandidates(source, { language: 'tsx' }).map((c) => `${c.operator}@${c.line}`);
    expect(out.length).toBeGreaterThan(0);
    expect(out.every((entry) => entry.endsWith('@4'))).toBe(true);
  });
});
