import type { JsRunner } from '../../../harness/js-test-files.js';
import type { TestName } from './weaken-plan-js.js';

const joined = (separator: string): TestName => (titles) => titles.join(separator);

/**
 * What a runner's parser calls a test (the part of its id after `file > `), from the test's
 * titles outermost first: Mocha's full title joins them with spaces; tape prints one flat
 * `# name` comment per test, nested or not, so tap_parser.py names a tape test by its innermost
 * title alone; node:test and node-tap nest `# Subtest` headers and Jest and Vitest report the
 * ancestor titles, joined with ` > `.
 */
export function jsTestName(runner: JsRunner): TestName {
  if (runner === 'mocha') return joined(' ');
  if (runner === 'tape') return (titles) => titles.at(-1) ?? '';
  return joined(' > ');
}
