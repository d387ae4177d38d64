import { shellQuote } from '../util/shell-quote.js';

/** The JS runners whose single tests (or, for TAP runners, single files) the order check can run alone. */
export type JsFocusRunner = 'node-test' | 'jest' | 'vitest' | 'mocha' | 'tap-file';

/** A JS test id of the default parsers: the file, then block and test names, joined by " > ". */
const JS_ID = /^[^\s>][^>]*\.[cm]?[jt]sx? > ./;
const JS_FILE_ID = /^[^\s>][^>]*\.[cm]?[jt]sx?$/;

/**
 * Which JS runner the artifact's script calls, judged from the script and the ids its parser
 * printed (`file > names`, as jest_json_parser.py, mocha_json_parser.py and tap_parser.py print
 * them). Null when the script calls none of them or an id is not of that shape.
 */
export function jsFocusRunner(testScript: string, ids: readonly string[]): JsFocusRunner | null {
  if (!ids.every((id) => JS_ID.test(id) || JS_FILE_ID.test(id))) return null;
  if (/\bnode\s+(?:[^\n|;&]*\s)?--test\b/.test(testScript)) return 'node-test';
  if (/\bvitest\b/.test(testScript)) return 'vitest';
  if (/\bjest\b/.test(testScript)) return 'jest';
  if (/\bmocha\b/.test(testScript)) return 'mocha';
  if (/\b(?:tape|tap)\b/.test(testScript) || /\bnode\s+"?\$/.test(testScript)) return 'tap-file';
  return null;
}

/** A regex source that matches exactly `text` (anchored, every special character escaped). */
export function exactPattern(text: string): string {
  return `^${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;
}

/**
 * The command that runs one test alone, its output on stdout for order_parser.py: node:test with
 * the TAP reporter (`# pass N` / `# fail N`), Jest and Vitest with the JSON report on stdout
 * (`numPassedTests` / `numFailedTests`), Mocha with its JSON reporter (`passes` / `failures`),
 * or a tape / node-tap file run alone with node (its TAP points). The runners address a test by a
 * name pattern (node:test `--test-name-pattern` on the test's own name; Jest / Vitest `-t` and
 * Mocha `--grep` on the block titles and the test's, joined by spaces) within its file, so the
 * pattern is the exact name, anchored. TAP runners cannot address one test: the whole file runs.
 */
export function jsAloneCommand(runner: JsFocusRunner, id: string): string {
  const [file = id, ...names] = id.split(' > ');
  const path = shellQuote(file);
  const full = names.join(' ');
  switch (runner) {
    case 'node-test': {
      const leaf = names.at(-1);
      return `node --test --test-reporter=tap${leaf === undefined ? '' : ` --test-name-pattern=${shellQuote(exactPattern(leaf))}`} ${path}`;
    }
    case 'jest':
      return `node_modules/.bin/jest --ci --json --watchman=false --cacheDirectory=/tmp/ssr-jest-cache --runTestsByPath ${path}${full === '' ? '' : ` -t ${shellQuote(exactPattern(full))}`}`;
    case 'vitest':
      return `node_modules/.bin/vitest run --reporter=json --color=false ${path}${full === '' ? '' : ` -t ${shellQuote(exactPattern(full))}`}`;
    case 'mocha':
      return `node_modules/.bin/mocha --reporter json --no-color${full === '' ? '' : ` --grep ${shellQuote(exactPattern(full))}`} ${path}`;
    case 'tap-file':
      return `node ${path}`;
  }
}
