import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { packagePath } from '../util/package-root.js';
import { shellQuote, shellQuoteAll } from '../util/shell-quote.js';
import { jsAloneCommand, jsFocusRunner, type JsFocusRunner } from './order-js-commands.js';
import type { CheckScript } from './script-runs.js';

/** The runners whose single tests ssr knows how to address by the ids a parser prints. */
export type FocusRunner = 'pytest' | 'unittest' | JsFocusRunner;

/** Tests of F run alone at most: one process each, in one sandbox, so the cost stays one batch. */
export const MAX_ALONE = 10;

/**
 * Which runner the artifact's script uses, judged from the script and the ids its parser
 * printed: pytest node ids (`path::name`) with a script that calls pytest, dotted ids with one
 * that calls unittest, or `file > names` ids with one that calls a JS runner (jsFocusRunner).
 * Null when none: the tests cannot be addressed one by one.
 */
export function focusRunner(testScript: string, ids: readonly string[]): FocusRunner | null {
  if (ids.length === 0) return null;
  if (/\bpytest\b/.test(testScript) && ids.every((id) => id.includes('::'))) return 'pytest';
  if (/\bunittest\b/.test(testScript) && ids.every((id) => /^[\w.]+$/.test(id))) return 'unittest';
  return jsFocusRunner(testScript, ids);
}

/** Up to `max` ids spread evenly over the sorted list (not only the first file's tests). */
export function spread(ids: readonly string[], max: number): string[] {
  const sorted = [...ids].sort();
  if (sorted.length <= max) return sorted;
  return Array.from({ length: max }, (_, i) => sorted[Math.floor((i * sorted.length) / max)]!);
}

/**
 * The order-independence run on B: each test of `alone` in its own process (exit status only),
 * then every test of `all` in one process in reverse order, verbose. pytest's runs are forked from
 * one process that imported pytest once (pytest_order_run.py: each is still its own process and
 * pytest session, as `python3 -m pytest` would run it, at a fraction of the start-up). unittest ids
 * may be relative to a start dir below /repo: every test file's directory goes on PYTHONPATH so
 * they import.
 * JS runners: each test of `alone` run alone (jsAloneCommand), its output between
 * `@@ssr-alone-begin` / `@@ssr-alone-end <exit>` lines so the parser can check that the test it
 * named really ran; no reversed run (they cannot reorder the tests of a file, and node:test,
 * Jest and Vitest run each file in a process of its own).
 */
export function orderRunScript(runner: FocusRunner, alone: readonly string[], all: readonly string[], testFiles: readonly string[]): CheckScript {
  if (runner !== 'pytest' && runner !== 'unittest') return jsOrderRunScript(runner, alone);
  const reversed = [...all].sort().reverse();
  const lines = ['#!/usr/bin/env bash', 'cd /repo', 'export PYTHONDONTWRITEBYTECODE=1 COLUMNS=250'];
  if (runner === 'pytest') {
    // The helper lives outside the repo, so no test can import or collect it.
    lines.push(
      'helper=$(mktemp -d)/ssr_pytest_order_run.py',
      `echo ${Buffer.from(bundled('pytest_order_run.py')).toString('base64')} | base64 -d > "$helper"`,
      `python3 "$helper" ${alone.length} ${shellQuoteAll([...alone, ...reversed])}`,
      'rm -rf -- "$(dirname "$helper")"',
    );
  } else {
    const dirs = [...new Set(testFiles.map((file) => posix.dirname(file)))].sort();
    lines.push(`export PYTHONPATH=${shellQuote(dirs.join(':'))}\${PYTHONPATH:+:$PYTHONPATH}`);
    for (const id of alone) lines.push(`python3 -m unittest ${shellQuote(id)} >/dev/null 2>&1; echo "@@ssr-alone $? "${shellQuote(id)}`);
    lines.push('echo @@ssr-reversed-start', `python3 -m unittest -v ${shellQuoteAll(reversed)} 2>&1`, 'echo "@@ssr-reversed-end $?"');
  }
  lines.push('exit 0');
  return { testScript: `${lines.join('\n')}\n`, testParser: bundled('order_parser.py') };
}

function jsOrderRunScript(runner: JsFocusRunner, alone: readonly string[]): CheckScript {
  const lines = ['#!/usr/bin/env bash', 'cd /repo', 'export CI=1 NO_COLOR=1 FORCE_COLOR=0'];
  for (const id of alone) {
    lines.push(`echo "@@ssr-alone-begin "${shellQuote(id)}`, `${jsAloneCommand(runner, id)} < /dev/null 2>&1`, `echo "@@ssr-alone-end $? "${shellQuote(id)}`);
  }
  lines.push('echo @@ssr-reversed-start', 'echo "@@ssr-reversed-end 0"', 'exit 0');
  return { testScript: `${lines.join('\n')}\n`, testParser: bundled('order_parser.py') };
}

const scripts = new Map<string, string>();
/** A Python file of src/validator/scripts, read once. */
function bundled(name: string): string {
  let text = scripts.get(name);
  if (text === undefined) scripts.set(name, (text = readFileSync(packagePath('src', 'validator', 'scripts', name), 'utf8')));
  return text;
}
