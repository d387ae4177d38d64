import type { Detector } from './detector.js';
import { few, filesMatching, pythonTestFiles } from './python-files.js';

/** unittest: TestCase classes and no sign of pytest. pytest collects them too, so ssr's default script runs them. */
export const pythonUnittest: Detector = {
  languages: ['python'],
  runner: 'unittest',
  async detect(files) {
    const cases = await filesMatching(files, pythonTestFiles(files), /unittest\.TestCase|^from unittest import/m);
    if (cases.length === 0) return undefined;
    return {
      language: 'python',
      runner: 'unittest',
      testRunner: 'pytest',
      testCommand: 'python3 -m unittest discover -v',
      evidence: [`unittest.TestCase in ${few(cases)}`],
      supported: true,
      note: 'ssr runs them with pytest, which collects unittest TestCases',
    };
  },
};
