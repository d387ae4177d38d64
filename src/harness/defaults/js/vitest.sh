#!/usr/bin/env bash
# Vitest test script: the repo's whole suite once (`run`, never watch), its Jest-shaped JSON
# report printed after the run between marker lines for jest_json_parser.py. The report goes to
# a file (not stdout) so that what a test prints cannot mix into it.
cd /repo || exit 2
# Forged reports: code under test could write a report block of its own into the log (through
# /proc) and kill this script before the real one prints. So the first line commits to a nonce
# this script holds in a shell variable (never exported, never in a command line) and the line
# after the real block reveals it; the parser counts only a block followed by that nonce.
nonce=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "ssr-json-report-commit: $(printf '%s' "$nonce" | sha256sum | cut -d' ' -f1)"
# Where the driver offers one (docs/grading.md, "The JS report travels outside the test user's
# reach"), the report goes into the driver's FIFO, which this user can write but never read or
# rewrite; the driver appends it to the log after the run. Otherwise it goes to a temp file.
if [ -n "${SSR_REPORT_FIFO:-}" ] && [ -p "$SSR_REPORT_FIFO" ]; then
  report=$SSR_REPORT_FIFO
  echo ssr-json-report-supervised
else
  report=$(mktemp)
fi
# In-process tampering: the code under test runs in the tests' own worker and could redefine the
# built-in matchers (expect.extend, chai's Assertion prototype), neutralise what they compare with,
# or register a hook that turns a failed result into a pass. So the run's config is a wrapper that
# loads the repo's own (vitest.config.*, else vite.config.*, as Vitest looks for them) and appends
# ssr's setup file to its setupFiles: before any test file it snapshots expect and the matchers and
# makes each test's result state and errors accessors that refuse to turn a failure into a pass;
# after each test (its afterEach runs last) it compares, runs failing canary assertions that must
# throw, and fails the test with `ssr-tampered: <what>` on a finding (jest_json_parser.py reports it).
# A workspace file, or no Vitest entry where expected, turns the checks off (said in the log).
helpers=$(mktemp -d)
vitest_dist=/repo/node_modules/vitest/dist
cat > "$helpers/setup.mjs" <<'SETUP'
// ssr's integrity layer for Vitest, appended to the repo's setupFiles (see vitest.sh).
import { afterEach, beforeEach, expect } from '/repo/node_modules/vitest/dist/index.js';

const MARK = ['ssr', 'tampered: '].join('-');
const findings = [];
const record = (what) => { if (!findings.includes(what)) findings.push(what); };
const snapshot = (object) => (object ? Object.fromEntries(Object.getOwnPropertyNames(object).map((key) => [key, Object.getOwnPropertyDescriptor(object, key)])) : {});
const assertion = Object.getPrototypeOf(expect(0));
// With `globals: true` the API is on globalThis too: a reassignment there is recorded, not applied.
for (const name of ['test', 'it', 'describe', 'suite', 'expect', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach', 'vi']) {
  const desc = Object.getOwnPropertyDescriptor(globalThis, name);
  if (!desc || !desc.configurable || !('value' in desc)) continue;
  const value = desc.value;
  Object.defineProperty(globalThis, name, { configurable: false, enumerable: desc.enumerable, get: () => value, set: () => record(`global ${name} reassigned`) });
}
const saved = { expect: snapshot(expect), assertion: snapshot(assertion), is: Object.is };
const same = (a, b) => a && b && a.value === b.value && a.get === b.get && a.set === b.set;
const CANARIES = [
  (e) => e(1).toBe(2), (e) => e({ a: 1 }).toEqual({ a: 2 }), (e) => e([1]).toStrictEqual([2]), (e) => e(0).toBeTruthy(),
  (e) => e(1).toBeFalsy(), (e) => e(() => undefined).toThrow(), (e) => e({ a: 1 }).toMatchObject({ a: 2 }), (e) => e([1]).toContain(2),
  (e) => e(1).toBeNull(), (e) => e(1).toBeUndefined(), (e) => e([]).toHaveLength(1), (e) => e('a').toMatch(/b/),
  (e) => e(1).toBeGreaterThan(2), (e) => e({}).toHaveProperty('a'), (e) => e(1).not.toBe(1), (e) => e(new Set([1])).toEqual(new Set([2])),
];

function check() {
  for (const [key, desc] of Object.entries(saved.expect)) if (!same(desc, Object.getOwnPropertyDescriptor(expect, key))) record(`expect.${key} replaced`);
  // expect.extend adds matchers here; replacing a built-in one is tampering.
  for (const [key, desc] of Object.entries(saved.assertion)) if (!same(desc, Object.getOwnPropertyDescriptor(assertion, key))) record(`matcher ${key} replaced`);
  if (Object.is !== saved.is) record('Object.is replaced');
  const state = expect.getState();
  const calls = state.assertionCalls;
  CANARIES.forEach((canary, index) => {
    let threw = false;
    try { canary(expect); } catch { threw = true; }
    if (!threw) record(`expect canary ${index + 1} passed (${String(canary).slice(7)})`);
  });
  expect.setState({ assertionCalls: calls });
}

// A test's result: once failed it stays failed (a retry may set it running again), and its errors
// are only ever added to. A write that breaks this is recorded, not applied.
beforeEach((context) => {
  const task = context.task;
  const result = task.result;
  if (!result || typeof result !== 'object') return;
  let state = result.state;
  let errors = result.errors;
  Object.defineProperty(result, 'state', {
    configurable: false,
    enumerable: true,
    get: () => state,
    set(next) {
      if (state === 'fail' && next !== 'fail' && !(next === 'run' && (task.retry || 0) > (result.retryCount || 0))) record(`the failure of "${task.name}" was overwritten with ${next}`);
      else state = next;
    },
  });
  Object.defineProperty(result, 'errors', {
    configurable: false,
    enumerable: true,
    get: () => errors,
    set(next) {
      if (Array.isArray(next) || next === undefined) {
        if (errors && errors.length > 0 && (!next || errors.some((error) => !next.includes(error)))) record(`the errors of "${task.name}" were cleared`);
        else errors = next;
      }
    },
  });
});

afterEach((context) => {
  check();
  const result = context.task.result;
  if (result && result.state === 'fail' && !(Array.isArray(result.errors) && result.errors.length > 0)) record(`the errors of "${context.task.name}" were cleared`);
  if (findings.length > 0) throw new Error(MARK + findings.join('; '));
});
SETUP
config=()
base=
for name in vitest.config vite.config; do
  for ext in ts mts cts js mjs cjs; do
    if [ -z "$base" ] && [ -f "$name.$ext" ]; then base="/repo/$name.$ext"; fi
  done
done
workspace=
for candidate in vitest.workspace.* vitest.projects.*; do
  if [ -z "$workspace" ] && [ -e "$candidate" ]; then workspace=$candidate; fi
done
if [ -n "$workspace" ] || [ ! -f "$vitest_dist/index.js" ] || [ ! -f "$vitest_dist/config.js" ]; then
  echo "ssr: Vitest integrity checks off: ${workspace:-no $vitest_dist/index.js and config.js}"
else
  {
    echo "import { mergeConfig } from '$vitest_dist/config.js';"
    if [ -n "$base" ]; then echo "import base from '$base';"; else echo "const base = {};"; fi
    echo "export default async (env) => {"
    echo "  const resolved = typeof base === 'function' ? await base(env) : await base;"
    echo "  return mergeConfig(resolved ?? {}, { test: { setupFiles: ['$helpers/setup.mjs'] } });"
    echo "};"
  } > "$helpers/vitest.config.mjs"
  config=(--config "$helpers/vitest.config.mjs")
  before=$(cat "$helpers/setup.mjs" "$helpers/vitest.config.mjs" | sha256sum)
fi
node_modules/.bin/vitest run "${config[@]}" --reporter=json --outputFile="$report" --color=false
status=$?
if [ "${#config[@]}" -gt 0 ] && [ "$(cat "$helpers/setup.mjs" "$helpers/vitest.config.mjs" 2>/dev/null | sha256sum)" != "$before" ]; then
  echo "ssr-tampered: ssr's Vitest setup was changed on disk during the run"
fi
rm -rf "$helpers"
if [ "$report" != "${SSR_REPORT_FIFO:-}" ]; then
echo ssr-json-report-begin
cat "$report"
echo
echo ssr-json-report-end
echo "ssr-json-report-nonce: $nonce"
rm -f "$report"
fi
exit "$status"
