import { describe, expect, it } from 'vitest';
import { isCodePath, isTestPath } from '../../../src/code/classify-path.js';

describe('classify-path', () => {
  it.each([
    // path, isTestPath, isCodePath
    ['pkg/mod.py', false, true],
    ['setup.py', false, true],
    ['pkg/_speedups.pyx', false, true],
    ['src/core.c', false, true],
    ['include/core.h', false, true],
    ['src/lib.rs', false, true],
    ['cmd/main.go', false, true],
    ['web/app.ts', false, true],
    ['web/App.JSX', false, true],
    ['src/Main.java', false, true],
    ['./pkg/mod.py', false, true],
    ['test_mod.py', true, false],
    ['pkg/test_mod.py', true, false],
    ['pkg/mod_test.py', true, false],
    ['conftest.py', true, false],
    ['pkg/conftest.py', true, false],
    ['tests/helpers.py', true, false],
    ['tests/data/input.json', true, false],
    ['pkg/tests/unit/deep.py', true, false],
    ['test/fixture.c', true, false],
    ['cmd/main_test.go', true, false],
    ['web/app.test.ts', true, false],
    ['web/app.spec.mjs', true, false],
    ['web/__tests__/app.js', true, false],
    ['pkg/testing.py', false, true], // a module named "testing" is library code (numpy.testing)
    ['pkg/testing/utils.py', false, true],
    ['pkg/contest.py', false, true],
    ['pkg/latest_test_data.json', false, false],
    ['tests.py', false, true], // only a directory named tests/ makes everything under it a test
    ['mytests/helper.py', false, true],
    ['README.md', false, false],
    ['docs/conf.txt', false, false],
    ['Makefile', false, false],
    ['pkg/.hidden', false, false],
    ['pyproject.toml', false, false],
    ['', false, false],
  ])('%s → test %s, code %s', (path, test, code) => {
    expect(isTestPath(path)).toBe(test);
    expect(isCodePath(path)).toBe(code);
  });
});
