import { describe, expect, it } from 'vitest';
import { dependencyHints } from '../../../src/onboarding/dependency-hints.js';
import { detectors } from '../../../src/onboarding/detectors/index.js';
import { detectLanguage } from '../../../src/onboarding/languages.js';
import { repoFilesOf } from '../../../src/onboarding/repo-files.js';

async function firstRunner(files: Record<string, string>) {
  for (const detector of detectors) {
    const found = await detector.detect(repoFilesOf(files));
    if (found) return found;
  }
  return undefined;
}

describe('test runner detectors', () => {
  it.each<[string, Record<string, string>, string | undefined, boolean, string]>([
    ['pytest.ini', { 'pytest.ini': '[pytest]\n', 'lib/a.py': 'x = 1\n' }, 'pytest', true, 'pytest.ini'],
    ['a pyproject pytest table', { 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "-q"\n' }, 'pytest', true, 'pyproject.toml [tool.pytest.ini_options]'],
    ['setup.cfg [tool:pytest]', { 'setup.cfg': '[tool:pytest]\ntestpaths = tests\n' }, 'pytest', true, 'setup.cfg [tool:pytest]'],
    ['a conftest', { 'tests/conftest.py': 'import pytest\n' }, 'pytest', true, 'tests/conftest.py'],
    ['pytest imported by tests', { 'tests/test_a.py': 'import pytest\n\ndef test_a():\n    assert True\n' }, 'pytest', true, 'pytest used in tests/test_a.py'],
    ['bare test functions', { 'a_test.py': 'def test_a():\n    assert 1\n' }, 'pytest', true, 'plain test functions in a_test.py'],
    ['unittest TestCases', { 'tests/test_a.py': 'import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n' }, 'unittest', true, 'unittest.TestCase in tests/test_a.py'],
    ['doctests only', { 'lib/m.py': 'def f():\n    """\n    >>> f()\n    1\n    """\n    return 1\n' }, 'doctest', false, 'doctest examples in lib/m.py'],
  ])('%s', async (_label, files, runner, supported, evidence) => {
    const found = await firstRunner(files);
    expect(found?.runner).toBe(runner);
    expect(found?.supported).toBe(supported);
    expect(found?.evidence).toContain(evidence);
  });

  it('finds nothing in a repo without tests', async () => {
    expect(await firstRunner({ 'lib/a.py': 'x = 1\n', 'README.md': '# hi\n' })).toBeUndefined();
  });

  it('says how to make a doctest-only repo runnable', async () => {
    expect((await firstRunner({ 'm.py': '>>> 1\n' }))?.note).toContain('--doctest-modules');
  });
});

describe('detectLanguage', () => {
  it.each([
    [{ 'a.py': '', 'b.py': '', 'c.js': '' }, 'python'],
    [{ 'src/a.ts': '', 'src/b.ts': '', 'setup.py': '' }, 'typescript'],
  ])('picks the language with the most files', (files, language) => {
    expect(detectLanguage(repoFilesOf(files))?.language).toBe(language);
  });

  it('answers nothing for a repo of unknown files', () => {
    expect(detectLanguage(repoFilesOf({ 'README.md': '', 'data.csv': '' }))).toBeUndefined();
  });
});

describe('dependencyHints', () => {
  it('turns requirements files into pip steps and lists declared dependencies for the user', async () => {
    const hints = await dependencyHints(
      repoFilesOf({
        'requirements.txt': '# runtime\nattrs>=21  # comment\n\n-r requirements-dev.txt\n--index-url https://x\n',
        'requirements-dev.txt': '\n# nothing\n',
        'pyproject.toml': '[build-system]\nrequires = ["setuptools"]\n\n[project]\nname = "x"\ndependencies = [\n  "six",\n  "idna>=3",\n]\n\n[tool.other]\ndependencies = ["not-this"]\n',
        'setup.cfg': '[options]\ninstall_requires =\n    requests\n    click\n',
      }),
    );
    expect(hints).toEqual([
      { file: 'requirements-dev.txt', detail: 'no requirements in it' },
      { file: 'requirements.txt', detail: '2 requirement(s): attrs>=21, -r requirements-dev.txt', step: { pip: ['-r', 'requirements.txt'] } },
      expect.objectContaining({ file: 'pyproject.toml', detail: expect.stringContaining('[project] dependencies: six, idna>=3: add a setup step { pip: ["six", "idna>=3"] }') }),
      expect.objectContaining({ file: 'setup.cfg', detail: expect.stringContaining('install_requires: requests, click') }),
    ]);
  });
});
