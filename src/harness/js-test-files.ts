import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsRunnerSchema, type JsRunner } from '../config/js-runner.js';
import { EngineError } from '../util/engine-error.js';
import { harnessAssetDir } from './default-files.js';

export { jsRunnerSchema, type JsRunner };

/**
 * Each runner's files in `src/harness/defaults/js/`. Jest and Vitest write the same JSON report,
 * and node:test, tape and node-tap all speak TAP, so three parsers cover the six runners; the
 * scripts carry the reporter flags that make parsing exact (see each file's header).
 */
const FILES: Record<JsRunner, { script: string; parser: string }> = {
  jest: { script: 'jest.sh', parser: 'jest_json_parser.py' },
  vitest: { script: 'vitest.sh', parser: 'jest_json_parser.py' },
  mocha: { script: 'mocha.sh', parser: 'mocha_json_parser.py' },
  'node-test': { script: 'node-test.sh', parser: 'tap_parser.py' },
  tape: { script: 'tap-files.sh', parser: 'tap_parser.py' },
  'node-tap': { script: 'tap-files.sh', parser: 'tap_parser.py' },
};

/** A runner's name checked, or a config error that lists the known ones. */
export function parseJsRunner(name: string): JsRunner {
  const parsed = jsRunnerSchema.safeParse(name);
  if (parsed.success) return parsed.data;
  throw new EngineError('config-invalid', `unknown JavaScript test runner "${name}": expected one of ${jsRunnerSchema.options.join(', ')} (or write your own test_script.sh and test_parser.py)`);
}

/** `from <module> import …  # ssr-inline`: a parser's import of a shared file beside it. */
const INLINE_IMPORT = /^from (\w+) import [^\n]*# ssr-inline$/gm;

/**
 * A parser's text with each shared file it imports (`# ssr-inline`) put in place of the import:
 * test_parser.py runs alone (in the sandbox, in an exported eval script, in the artifact), so
 * what the parsers share travels inside each of them rather than as a second file to copy.
 */
function inlineShared(dir: string, parser: string): string {
  return parser.replace(INLINE_IMPORT, (_line, module: string) => `# --- ${module}.py (inlined by ssr) ---\n${readFileSync(join(dir, `${module}.py`), 'utf8').trimEnd()}\n# --- end of ${module}.py ---`);
}

/** The test script and parser of a JS runner, as text: the same two files the artifact holds. */
export function readJsTestFiles(runner: JsRunner): { testScript: string; testParser: string } {
  const dir = join(harnessAssetDir('defaults'), 'js');
  const files = FILES[runner];
  return { testScript: readFileSync(join(dir, files.script), 'utf8'), testParser: inlineShared(dir, readFileSync(join(dir, files.parser), 'utf8')) };
}
