import type { Detector } from './detector.js';
import { few, filesMatching } from './python-files.js';

/** doctest only: `>>>` examples in modules and no test files (the runners above would have answered). */
export const pythonDoctest: Detector = {
  languages: ['python'],
  runner: 'doctest',
  async detect(files) {
    const modules = files.paths.filter((path) => path.endsWith('.py'));
    const examples = await filesMatching(files, modules, /^\s*>>> /m);
    if (examples.length === 0) return undefined;
    return {
      language: 'python',
      runner: 'doctest',
      testCommand: 'python3 -m pytest --doctest-modules -rA',
      evidence: [`doctest examples in ${few(examples)}`],
      supported: false,
      note: "ssr's default test script (python3 -m pytest -rA) does not collect doctests: add pytest test files (or a pytest.ini with addopts = --doctest-modules) to the repo",
    };
  },
};
