import type { JsRunner } from './js-test-files.js';
import { testFilesForRunner } from './repo-test-files.js';
import { EngineError } from '../util/engine-error.js';
import { shellQuoteAll } from '../util/shell-quote.js';

// The per-file runners' scripts (node:test, tape, node-tap) read their files from a `find`; the
// others run one command line that takes the files as arguments.
const FILE_LOOP_SOURCE = /done < <\(find [\s\S]*?-print0 \| sort -z\)/;
const RUNNER_LINE = /^node_modules\/\.bin\/\S+ .*$/m;

/** What a runner's command line gets to run only the given files (jest reads its arguments as patterns without this flag). */
const FILE_ARGUMENTS: Partial<Record<JsRunner, string>> = { jest: '--runTestsByPath', vitest: '', mocha: '--config "$helpers/ssr-mocharc.cjs" --no-package' };

/**
 * Mocha adds the `spec` of the repo's configuration (.mocharc.*, package.json's "mocha") to the
 * files named on its command line, so a restricted run still ran the whole suite (numeral's 39
 * files for one). The restricted script hands Mocha that configuration without `spec` instead,
 * read with Mocha's own loaders (Mocha 6 and later; ssr's script needs 9.2), into the folder of
 * the script's helpers, before any test code runs.
 */
const BEFORE_RUNNER: Partial<Record<JsRunner, string>> = {
  mocha: [
    `cat > "$helpers/ssr-mocharc.cjs" <<'SSR_MOCHARC'`,
    `'use strict';`,
    `// The repo's Mocha configuration without \`spec\`, which Mocha would add to the files named on its command line.`,
    `const { join } = require('node:path');`,
    `const options = require(join(process.cwd(), 'node_modules', 'mocha', 'lib', 'cli', 'options.js'));`,
    `const config = { ...(options.loadPkgRc({}) || {}), ...(options.loadRc({}) || {}) };`,
    `delete config.spec;`,
    `delete config._;`,
    `module.exports = config;`,
    `SSR_MOCHARC`,
    '',
  ].join('\n'),
};

/**
 * The runner's default test script (src/harness/defaults/js/, what the golden gate runs)
 * restricted to `files`: the `find` that feeds the per-file loop becomes the list, or the files
 * are added to the runner's command line. Everything else (reporter flags, the marker lines the
 * parser reads) stays the default's, so the default parser reads its output.
 * @throws EngineError `internal` when the default script no longer has the expected shape.
 */
export function jsTestScript(runner: JsRunner, files: readonly string[]): string {
  const script = testFilesForRunner(runner).testScript;
  const quoted = shellQuoteAll(files);
  const flag = FILE_ARGUMENTS[runner];
  let restricted: string;
  if (flag === undefined) {
    if (!FILE_LOOP_SOURCE.test(script)) throw shapeError(runner, 'a `find` feeding its file loop');
    restricted = script.replace(FILE_LOOP_SOURCE, () => `done < <(printf '%s\\0' ${quoted})`);
  } else {
    if (!RUNNER_LINE.test(script)) throw shapeError(runner, 'a node_modules/.bin command line');
    restricted = script.replace(RUNNER_LINE, (line) => (BEFORE_RUNNER[runner] ?? '') + [line, flag, quoted].filter((part) => part !== '').join(' '));
  }
  return restricted.replace(/^(#!.*\n)/, `$1# ssr's ${runner} script (src/harness/defaults/js/), restricted to the selected test files.\n`);
}

function shapeError(runner: JsRunner, expected: string): EngineError {
  return new EngineError('internal', `the default ${runner} test script has no ${expected} to restrict to the selected files`);
}
