import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractEntities } from '../../../src/code/python/entities.js';
import { applyCandidate, listCandidates } from '../../../src/mutation/mutate.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/python');
const scratch = mkdtempSync(join(tmpdir(), 'ssr-removal-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function mutants(operator: string, source: string): string[] {
  return listCandidates(source, { operators: [operator] }).map((candidate) => applyCandidate(source, candidate));
}

const ROWS: [string, string, string[]][] = [
  ['remove-function-body', 'def total(xs):\n    """Sum of xs."""\n    t = 0\n    for x in xs:\n        t += x\n    return t\n', [
    'def total(xs):\n    """Sum of xs."""\n    return 0\n',
  ]],
  ['remove-function-body', 'def names(rows) -> List[str]:\n    out = [r.name for r in rows]\n    return sorted(out)\n', [
    'def names(rows) -> List[str]:\n    return []\n',
  ]],
  ['remove-function-body', 'class A:\n    @property\n    def ok(self):\n        n = len(self.items)\n        return n > 0 and self.ready\n', [
    'class A:\n    @property\n    def ok(self):\n        return False\n',
  ]],
  ['remove-function-body', 'def pairs(xs):\n    for i in range(len(xs) - 1):\n        yield xs[i], xs[i + 1]\n', [
    'def pairs(xs):\n    yield from ()\n',
  ]],
  ['remove-function-body', 'def show(x):\n    # Print twice.\n    print(x)\n    print(x)  # again\n', ['def show(x):\n    pass\n']],
  ['remove-function-body', 'def label(x):\n    if x:\n        return "yes: " + x\n    return "no"\n', ['def label(x):\n    return ""\n']],
  // Constructors, abstract stubs and one-line bodies are left alone.
  ['remove-function-body', 'class A:\n    def __init__(self):\n        self.a = 1\n        self.b = 2\n', []],
  ['remove-function-body', 'class A:\n    @abstractmethod\n    def run(self):\n        """Run."""\n        raise NotImplementedError\n', []],
  ['remove-function-body', 'def f(x):\n    """Double."""\n    return x * 2\n', []],
  ['remove-loop', 'def f(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n    return out\n', ['def f(xs):\n    out = []\n    return out\n']],
  ['remove-loop', 'def f(xs):\n    while xs:\n        # Drain.\n        xs.pop()\n', ['def f(xs):\n    pass\n']],
  // The first binding of `b` stays (deleting it is a NameError, not a bug); rebinding it can go.
  ['remove-statement', 'def f(a):\n    b = a\n    b = b + 1\n    log(b)\n    return b\n', [
    'def f(a):\n    b = a\n    log(b)\n    return b\n',
    'def f(a):\n    b = a\n    b = b + 1\n    return b\n',
  ]],
  ['remove-statement', 'def f(*, text: str = ""):\n    text = text.strip()\n    self.n = len(text)\n    return text\n', [
    'def f(*, text: str = ""):\n    self.n = len(text)\n    return text\n',
    'def f(*, text: str = ""):\n    text = text.strip()\n    return text\n',
  ]],
  // A docstring does not count towards the three statements.
  ['remove-statement', 'def f(a):\n    """Doc."""\n    log(a)\n    return a\n', []],
  // A two-statement block, a module-level statement and a class attribute are left alone.
  ['remove-statement', 'def f(a):\n    b = a + 1\n    return b\n', []],
  ['remove-statement', 'x = 1\ny = 2\nz = x + y\n', []],
  ['remove-statement', 'class A:\n    a = 1\n    b = 2\n    c = 3\n', []],
  ['remove-if-block', 'def f(x):\n    y = 0\n    if x > 1:\n        y = x\n    else:\n        y = -x\n    return y\n', ['def f(x):\n    y = 0\n    return y\n']],
  ['remove-if-block', 'def f(x):\n    if x:\n        print(x)\n', ['def f(x):\n    pass\n']],
];

describe('removal operators', () => {
  it.each(ROWS)('%s on %j', (operator, source, expected) => {
    expect(mutants(operator, source)).toEqual(expected);
  });

  it.each(['inventory.py', 'text_stats.py'])('empty bodies of %s keep every signature and docstring, and the module imports', (file) => {
    const source = readFileSync(join(FIXTURES, file), 'utf8');
    const candidates = listCandidates(source, { operators: ['remove-function-body'] });
    expect(candidates.length).toBeGreaterThan(5);
    const original = extractEntities(source);
    const modules: string[] = [];
    candidates.forEach((candidate, index) => {
      const mutated = applyCandidate(source, candidate);
      const after = extractEntities(mutated);
      // Same functions, same signatures, same docstrings: only the body changed.
      for (const entity of original) {
        const twin = after.find((e) => e.qualifiedName === entity.qualifiedName);
        if (!twin) continue; // a nested function goes with its emptied parent
        expect(signature(twin.definition.text)).toBe(signature(entity.definition.text));
        expect(docstring(twin.body.text)).toBe(docstring(entity.body.text));
      }
      expect(after.length).toBeLessThanOrEqual(original.length);
      const name = `mutant_${file.replace('.py', '')}_${index}`;
      writeFileSync(join(scratch, `${name}.py`), mutated);
      modules.push(name);
    });
    // Import every mutant for real: a removal must leave a module that loads.
    const script = `import importlib, sys\nsys.path.insert(0, sys.argv[1])\nfor name in sys.argv[2:]:\n    importlib.import_module(name)\nprint(len(sys.argv) - 2)`;
    expect(execFileSync('python3', ['-c', script, scratch, ...modules], { encoding: 'utf8' }).trim()).toBe(String(modules.length));
  });
});

function signature(definition: string): string {
  return definition.slice(0, definition.indexOf(':\n') + 1);
}

function docstring(body: string): string | undefined {
  return /^("""[\s\S]*?"""|"[^"\n]*")/.exec(body)?.[0];
}
