import type { Detector } from './detector.js';
import { JS_LANGUAGES } from './js-languages.js';
import { KNOWN_JS_RUNNERS, readJsPackage, scriptRunner } from './js-package.js';

/**
 * Last among the JS detectors: scripts.test runs something no other detector knows (ava,
 * jasmine, a custom script). Answered as unsupported, so init refuses before any image build.
 */
export const jsUnknownRunner: Detector = {
  languages: JS_LANGUAGES,
  runner: 'unknown',
  async detect(files) {
    const pkg = await readJsPackage(files);
    if (pkg === undefined) return undefined;
    const script = scriptRunner(pkg);
    if (script.kind !== 'unknown') return undefined;
    const binary = script.command.split(/\s+/).find((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word) && !['npx', 'cross-env', 'c8', 'nyc'].includes(word)) ?? script.command;
    return {
      language: 'javascript',
      runner: binary,
      testCommand: `npm test (${script.command})`,
      evidence: [`package.json scripts.test: ${script.command}`],
      supported: false,
      note:
        `\`${binary}\` is not a test runner ssr knows: it runs a JS repo's suite with one of ${KNOWN_JS_RUNNERS.join(', ')} (test.runner in repos.yaml; scripts and parsers in src/harness/defaults/js/). ` +
        'Move the suite to one of them (and scripts.test with it). A test_script.sh and test_parser.py of your own for this runner can be tried with `ssr test-run --script test_script.sh --parser test_parser.py`, but the golden gate and validation run the known runners only',
    };
  },
};
