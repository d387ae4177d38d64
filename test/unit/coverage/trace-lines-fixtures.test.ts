import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTestCoverage, type TestCoverage } from '../../../src/coverage/test-coverage.js';
import { traceLinesPath } from '../../../src/coverage/trace-script.js';
import { coveringTests } from '../../../src/policy/procedural/injector/covering-tests.js';
import { selectByCoverage } from '../../../src/validator/selection/coverage-selection.js';

/** Debian's python3 with its pytest (the trainer's tests use it; ssr's images run the same pytest). */
const PYTHON = '/usr/bin/python3';

/**
 * A session fixture in conftest.py calls pkg.calc.base() (line 2); test_a sets it up, test_b
 * reads the value it made, test_c uses no fixture; test_d asks for another session fixture by
 * name at run time (line 6 of calc.py), which no static closure shows.
 */
const FILES: Record<string, string> = {
  'pkg/__init__.py': '',
  'pkg/calc.py': 'def base():\n    return 10\n\n\ndef dynamic():\n    return 3\n',
  'conftest.py': 'import pytest\nfrom pkg.calc import base, dynamic\n\n\n@pytest.fixture(scope="session")\ndef base_value():\n    return base()\n\n\n@pytest.fixture(scope="session")\ndef dynamic_value():\n    return dynamic()\n',
  'tests/test_a.py': 'def test_a(base_value):\n    assert base_value == 10\n',
  'tests/test_b.py': 'def test_b(base_value):\n    assert base_value + 1 == 11\n',
  'tests/test_c.py': 'def test_c():\n    assert True\n',
  'tests/test_d.py': 'def test_d(request):\n    assert request.getfixturevalue("dynamic_value") == 3\n',
};

let dir: string;
let coverage: TestCoverage;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ssr-trace-fixtures-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, 'files.txt'), 'pkg/calc.py\n');
  execFileSync(PYTHON, [traceLinesPath(), 'files.txt', '--map', 'map.txt', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const read = parseTestCoverage(execFileSync(PYTHON, [traceLinesPath(), '--query', 'map.txt', 'pkg/calc.py'], { cwd: dir, encoding: 'utf8' }));
  if (read.status !== 'ok') throw new Error(`the traced run's map is unusable: ${read.reason}`);
  coverage = read.coverage;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('trace_lines.py --map credits a session fixture\'s lines to every test file using it (real pytest)', () => {
  it('gives the Injector and validation both users of the fixture, not only the file that set it up', () => {
    // Before: line 2 ran while test_a set the fixture up, so only test_a was tried against a change
    // there, and test_b, which reads the value, was left out (a wrong verdict on the candidate).
    expect(coveringTests(coverage, 'pkg/calc.py', 2, 2)).toEqual({ status: 'restricted', files: ['tests/test_a.py', 'tests/test_b.py'] });
    const ranFiles = ['tests/test_a.py', 'tests/test_b.py', 'tests/test_c.py', 'tests/test_d.py'];
    const selection = selectByCoverage({ coverage, changed: new Map([['pkg/calc.py', { removed: [2], gaps: [] }]]), ranFiles, listed: [] });
    expect(selection).toMatchObject({ status: 'selected', ignore: ['tests/test_c.py', 'tests/test_d.py'] });
  });

  it('marks a fixture asked for by name at run time as reaching any test (*): its users are unknown', () => {
    expect(coveringTests(coverage, 'pkg/calc.py', 6, 6)).toMatchObject({ status: 'full', reason: expect.stringContaining('outside any test') });
  });
});
