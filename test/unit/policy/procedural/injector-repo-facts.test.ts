import { describe, expect, it } from 'vitest';
import { unittestStartDir } from '../../../../src/policy/procedural/injector/discover.js';
import { heredoc } from '../../../../src/policy/procedural/injector/injector-commands.js';
import { readPage } from '../../../../src/policy/procedural/injector/read-text-file.js';
import { classifyPyFiles, countsPerFile, parseCoverage, parseSourceListing } from '../../../../src/policy/procedural/injector/repo-facts.js';
import { parseRunSummary } from '../../../../src/policy/procedural/injector/run-summary.js';

describe('repository facts', () => {
  it('reads the Python file listing, paths with spaces included', () => {
    const files = parseSourceListing('@@files 9\n@@py 12 300 tests/test_a.py\n@@py 0 0 pkg/__init__.py\n@@py 40 999 pkg/my module.py\nnoise');
    expect([...files.values()]).toEqual([
      { path: 'tests/test_a.py', lines: 12, bytes: 300 },
      { path: 'pkg/__init__.py', lines: 0, bytes: 0 },
      { path: 'pkg/my module.py', lines: 40, bytes: 999 },
    ]);
  });

  it('tells test modules from code files (conftest and test helpers are neither)', () => {
    const { testFiles, codeFiles } = classifyPyFiles(['tests/test_a.py', 'tests/conftest.py', 'tests/helpers.py', 'pkg/core.py', 'pkg/core_test.py', 'test_top.py', 'setup.py']);
    expect([...testFiles].sort()).toEqual(['pkg/core_test.py', 'test_top.py', 'tests/test_a.py']);
    expect(codeFiles).toEqual(['pkg/core.py', 'setup.py']);
  });

  it('counts passing and failing tests per file, unittest modules and module-level errors included', () => {
    const files = new Set(['tests/test_a.py', 'tests/test_b.py']);
    const summary = parseRunSummary('@@run passed=5 failed=1\n@@group tests.test_a passed=5 failed=0\n@@fail tests.test_b\tcollection')!;
    expect(countsPerFile(summary, { kind: 'unittest', startDir: '.' }, files)).toEqual(
      new Map([['tests/test_a.py', { passed: 5, failed: 0 }], ['tests/test_b.py', { passed: 0, failed: 1 }]]),
    );
    const pytest = parseRunSummary('@@run passed=3 failed=1\n@@group tests/test_a.py passed=3 failed=1\n@@group other.py passed=1 failed=0')!;
    expect(countsPerFile(pytest, { kind: 'pytest' }, files)).toEqual(new Map([['tests/test_a.py', { passed: 3, failed: 1 }]]));
  });

  it('reads line coverage ranges', () => {
    const coverage = parseCoverage('@@cov pkg/a.py 0-2,5,7-8\n@@cov pkg/b c.py 3\nnot a line');
    expect([...coverage.get('pkg/a.py')!]).toEqual([0, 1, 2, 5, 7, 8]);
    expect([...coverage.get('pkg/b c.py')!]).toEqual([3]);
  });

  it.each([
    [['tests/test_a.py', 'tests/test_b.py'], ['tests/__init__.py'], '.'],
    [['tests/test_a.py', 'tests/test_b.py'], [], 'tests'],
    [['test_a.py'], [], '.'],
    [['a/tests/test_x.py', 'b/test_y.py', 'b/test_z.py'], [], 'b'],
  ])('unittest start dir of %j (packages %j) is %s', (tests, inits, expected) => {
    const py = new Map([...tests, ...inits].map((path) => [path, { path, lines: 1, bytes: 1 }]));
    expect(unittestStartDir(new Set(tests), py)).toBe(expected);
  });
});

describe('sandbox I/O helpers', () => {
  it.each([
    ['a\nb\n@@PAGE 4 9', { text: 'a\nb\n', next: 4, total: 9 }],
    ['a\nb@@PAGE 3 3', { text: 'a\nb', next: 3, total: 3 }],
    ['@@PAGE 0 0', { text: '', next: 0, total: 0 }],
    ['a\n[... 100 bytes (3 lines) cut from the middle of 20,000 bytes of output; narrow the command ...]\nb\n@@PAGE 5 9', null],
    ['a\n@@PAGE 2 9\nmore', null],
    ['says "bytes of output; narrow"\n@@PAGE 31 31', { text: 'says "bytes of output; narrow"\n', next: 31, total: 31 }],
    ["FileNotFoundError: [Errno 2] No such file or directory: 'x'", null],
  ])('readPage(%j)', (output, expected) => {
    expect(readPage(output)).toEqual(expected);
  });

  it('writes a heredoc whose delimiter the content does not contain', () => {
    expect(heredoc('/tmp/a b', 'x\n')).toBe("cat > '/tmp/a b' <<'SSR_EOF'\nx\nSSR_EOF");
    expect(heredoc('/tmp/x', 'SSR_EOF\nSSR_EOF_1\n')).toBe("cat > /tmp/x <<'SSR_EOF_2'\nSSR_EOF\nSSR_EOF_1\nSSR_EOF_2");
  });
});
