import type { Detector } from './detector.js';
import { few, filesMatching, pythonTestFiles } from './python-files.js';

/** pytest: a pytest config, a conftest.py, or test files that use pytest or bare test functions. */
export const pythonPytest: Detector = {
  languages: ['python'],
  runner: 'pytest',
  async detect(files) {
    const evidence: string[] = [];
    if (files.paths.includes('pytest.ini')) evidence.push('pytest.ini');
    for (const [path, section] of [['pyproject.toml', /\[tool\.pytest\.ini_options\]/], ['setup.cfg', /\[tool:pytest\]/], ['tox.ini', /\[pytest\]/]] as const) {
      if (section.test((await files.read(path)) ?? '')) evidence.push(`${path} [${section.source.replace(/\\/g, '').slice(1, -1)}]`);
    }
    const conftests = files.paths.filter((path) => /(^|\/)conftest\.py$/.test(path));
    if (conftests.length > 0) evidence.push(few(conftests));
    const tests = pythonTestFiles(files);
    const usesPytest = await filesMatching(files, tests, /^\s*(import pytest|from pytest\b)|@pytest\./m);
    if (usesPytest.length > 0) evidence.push(`pytest used in ${few(usesPytest)}`);
    const bare = await filesMatching(files, tests, /^def test_\w*\(/m);
    if (bare.length > 0 && usesPytest.length === 0) evidence.push(`plain test functions in ${few(bare)}`);
    if (evidence.length === 0) return undefined;
    return { language: 'python', runner: 'pytest', testRunner: 'pytest', testCommand: 'python3 -m pytest -rA', evidence, supported: true };
  },
};
