#!/usr/bin/env bash
# Jest test script: the repo's whole suite, its JSON report printed after the run between
# marker lines for jest_json_parser.py. The report goes to a file (not stdout) so that what a
# test prints cannot mix into it; no watchman (none in a sandbox), no cache in the repo.
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
# In-process tampering: the code under test runs in the tests' own VM context and could rewrap
# `test`/`it`/`expect`, neutralise matchers (expect.extend, the matchers store, Object.is), clear a
# test's recorded failure or swap a test's body. The repo's own test environment (read from
# `jest --showConfig`, so its config is honoured) is run subclassed by ssr's: its handleTestEvent,
# called by jest-circus from outside the VM after the runner's own handlers, makes the globals
# non-configurable accessors (a reassignment is recorded, not applied) and freezes test/it/describe
# before any repo code runs; after each test and when the file ends it compares the globals, expect's
# own properties and the built-in matchers with what they were, runs failing canary assertions that
# must throw, and holds every failure it saw against the test's errors. A finding fails every test
# of the file with a message starting `ssr-tampered:`, which jest_json_parser.py reports.
helpers=$(mktemp -d)
cat > "$helpers/env.cjs" <<'ENV'
'use strict';
// ssr's integrity layer for Jest: the repo's own test environment, subclassed. Jest calls its
// handleTestEvent for every jest-circus event, from outside the tests' VM context, after the
// runner's own handlers; code under test cannot reach it.
const fs = require('node:fs');
const path = require('node:path');
const original = fs.readFileSync(path.join(__dirname, 'original-env'), 'utf8').trim();
const loaded = require(original);
const Base = loaded && loaded.TestEnvironment ? loaded.TestEnvironment : loaded && loaded.default ? loaded.default : loaded;
const GLOBALS = ['test', 'it', 'describe', 'expect', 'fit', 'fdescribe', 'xit', 'xtest', 'xdescribe', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach'];
const MATCHERS = Symbol.for('$$jest-matchers-object');
// Each must throw: a matcher that checks nothing (or an Object.is, an equality tester that says
// "equal" to everything) lets it pass.
const CANARIES = [
  (e) => e(1).toBe(2), (e) => e({ a: 1 }).toEqual({ a: 2 }), (e) => e([1]).toStrictEqual([2]), (e) => e(0).toBeTruthy(),
  (e) => e(1).toBeFalsy(), (e) => e(() => undefined).toThrow(), (e) => e({ a: 1 }).toMatchObject({ a: 2 }), (e) => e([1]).toContain(2),
  (e) => e(1).toBeNull(), (e) => e(1).toBeUndefined(), (e) => e([]).toHaveLength(1), (e) => e('a').toMatch(/b/),
  (e) => e(1).toBeGreaterThan(2), (e) => e(1).toBeCloseTo(2), (e) => e({}).toHaveProperty('a'), (e) => e(1).not.toBe(1),
  (e) => e(1).toBeDefined() || e(undefined).toBeDefined(), (e) => e(new Set([1])).toEqual(new Set([2])),
];
const push = (list, item) => { list[list.length] = item; };
// Built so that the marker never appears in this file's text (Jest quotes source lines in its messages).
const MARK = ['ssr', 'tampered: '].join('-');

class SsrIntegrityEnvironment extends Base {
  constructor(config, context) {
    super(config, context);
    this.ssrFindings = [];
    this.ssrReported = 0;
    this.ssrFailed = new Map();
    this.ssrFns = new Map();
    this.ssrSetupFiles = ((config.projectConfig || config).setupFilesAfterEnv || []).slice();
  }

  ssrFind(what) { if (!this.ssrFindings.includes(what)) this.ssrFindings.push(what); }

  // A global reassigned by a repo setup file (jest-expect-message wraps expect) is the repo's own
  // runner set-up: allowed when the stack holds such a file and no other repo file outside node_modules.
  ssrAllowed(stack) {
    const files = [...String(stack).matchAll(/\(?((?:\/|file:\/\/)[^():\s]+):\d+:\d+\)?/g)].map((m) => m[1].replace(/^file:\/\//, ''));
    const repo = files.filter((file) => file !== __filename && !file.includes('/node_modules/'));
    return repo.length > 0 && repo.every((file) => this.ssrSetupFiles.includes(file));
  }

  ssrInstall() {
    const g = this.global;
    this.ssrOriginals = {};
    for (const name of GLOBALS) {
      let value = g[name];
      if (value === undefined) continue;
      this.ssrOriginals[name] = value;
      // test/it/describe and their variants are frozen; expect is not (expect.extend defines its
      // asymmetric matchers on it), so its own properties are compared instead.
      if (name === 'expect') this.ssrExpectProps = Object.assign(Object.create(null), value);
      else {
        Object.freeze(value);
        for (const key of Object.keys(value)) if (typeof value[key] === 'function') Object.freeze(value[key]);
      }
      const env = this;
      try {
        Object.defineProperty(g, name, {
          configurable: false,
          enumerable: true,
          get() { return value; },
          set(next) {
            if (env.ssrAllowed(new Error().stack)) { value = next; env.ssrOriginals[name] = next; return; }
            env.ssrFind(`global ${name} reassigned`);
          },
        });
      } catch {
        this.ssrFind(`global ${name} could not be guarded`);
      }
    }
    const store = g[MATCHERS];
    this.ssrStore = store;
    this.ssrMatchersObject = store && store.matchers;
    this.ssrMatchers = store && store.matchers ? Object.assign(Object.create(null), store.matchers) : null;
  }

  ssrCheck() {
    const g = this.global;
    for (const [name, value] of Object.entries(this.ssrOriginals || {})) {
      const now = Object.getOwnPropertyDescriptor(g, name);
      if (!now || typeof now.get !== 'function' || now.get.call(g) !== value) this.ssrFind(`global ${name} replaced`);
    }
    const expectNow = this.ssrOriginals && this.ssrOriginals.expect;
    for (const [key, prop] of Object.entries(this.ssrExpectProps || {})) if (expectNow && expectNow[key] !== prop) this.ssrFind(`expect.${key} replaced`);
    const store = g[MATCHERS];
    if (store !== this.ssrStore || (store && store.matchers !== this.ssrMatchersObject)) this.ssrFind('expect matchers replaced');
    else if (this.ssrMatchers) {
      for (const [name, fn] of Object.entries(this.ssrMatchers)) if (store.matchers[name] !== fn) this.ssrFind(`matcher ${name} replaced`);
    }
    const expect = this.ssrOriginals && this.ssrOriginals.expect;
    if (typeof expect === 'function') {
      const state = typeof expect.getState === 'function' ? { ...expect.getState() } : null;
      CANARIES.forEach((canary, index) => {
        let threw = false;
        try { canary(expect); } catch { threw = true; }
        if (!threw) this.ssrFind(`expect canary ${index + 1} passed (${String(canary).slice(7)})`);
      });
      if (state && typeof expect.setState === 'function') expect.setState({ assertionCalls: state.assertionCalls, suppressedErrors: state.suppressedErrors });
    }
  }

  ssrFlag(errors) {
    if (this.ssrFindings.length > this.ssrReported) {
      push(errors, new Error(MARK + this.ssrFindings.join('; ')));
      this.ssrReported = this.ssrFindings.length;
    }
  }

  async handleTestEvent(event, state) {
    if (super.handleTestEvent) await super.handleTestEvent(event, state);
    switch (event.name) {
      case 'setup': this.ssrInstall(); break;
      case 'add_test': {
        const children = state.currentDescribeBlock && state.currentDescribeBlock.children;
        const test = children && children[children.length - 1];
        if (test && test.type === 'test') this.ssrFns.set(test, test.fn);
        break;
      }
      case 'test_fn_start':
        if (this.ssrFns.has(event.test) && event.test.fn !== this.ssrFns.get(event.test)) this.ssrFind(`the body of "${event.test.name}" was replaced`);
        break;
      case 'test_fn_failure':
      case 'hook_failure':
        if (event.test) this.ssrFailed.set(event.test, event.error);
        break;
      case 'test_done': {
        const test = event.test;
        this.ssrCheck();
        if (this.ssrFailed.has(test) && !(Array.isArray(test.errors) && test.errors.length > 0)) {
          this.ssrFind(`the failure of "${test.name}" was cleared`);
          test.errors = [this.ssrFailed.get(test)];
        }
        this.ssrFlag(test.errors);
        break;
      }
      case 'run_finish': {
        this.ssrCheck();
        for (const [test, error] of this.ssrFailed) {
          if (!(Array.isArray(test.errors) && test.errors.length > 0)) {
            this.ssrFind(`the failure of "${test.name}" was cleared`);
            test.errors = [error];
          }
        }
        // Tampering voids the whole file: every test carries the finding, and so does the file.
        if (this.ssrFindings.length > 0) {
          const finding = new Error(MARK + this.ssrFindings.join('; '));
          const walk = (block) => {
            for (const child of (block && block.children) || []) {
              if (child.type === 'test') child.errors = [...(Array.isArray(child.errors) ? child.errors : []), finding];
              else walk(child);
            }
          };
          walk(state.rootDescribeBlock);
          try { state.unhandledErrors = [...(Array.isArray(state.unhandledErrors) ? state.unhandledErrors : []), finding]; } catch {}
        }
        break;
      }
      default:
    }
  }
}

module.exports = SsrIntegrityEnvironment;
module.exports.TestEnvironment = SsrIntegrityEnvironment;
ENV
environment=()
# The repo's resolved test environment, from jest-config's readConfigs (what `jest --showConfig`
# prints, at a third of its start-up time), else from `jest --showConfig` itself.
if node -e '
  const { execFileSync } = require("child_process");
  const envsOf = (configs) => [...new Set(configs.map((config) => config.testEnvironment))];
  const done = (envs) => {
    if (envs.length !== 1 || typeof envs[0] !== "string") { console.error(`${envs.length} test environments`); process.exit(1); }
    console.log(envs[0]);
  };
  let jestConfig = null;
  try {
    const jestDir = require("path").dirname(require.resolve("jest/package.json", { paths: [process.cwd()] }));
    jestConfig = require(require.resolve("jest-config", { paths: [process.cwd(), jestDir] }));
  } catch {}
  const viaCli = () => done(envsOf(JSON.parse(execFileSync("node_modules/.bin/jest", ["--showConfig"], { encoding: "utf8", maxBuffer: 64 << 20 })).configs || []));
  if (jestConfig && typeof jestConfig.readConfigs === "function") jestConfig.readConfigs({ $0: "jest", _: [] }, [process.cwd()]).then(({ configs }) => done(envsOf(configs)), viaCli);
  else viaCli();
' > "$helpers/original-env" 2> "$helpers/config.err"; then
  environment=(--testEnvironment="$helpers/env.cjs")
  before=$(cat "$helpers/env.cjs" "$helpers/original-env" | sha256sum)
else
  echo "ssr: Jest integrity checks off: $(tail -c 300 "$helpers/config.err" | tr '\n' ' ')"
fi
node_modules/.bin/jest --ci --json --outputFile="$report" --watchman=false --cacheDirectory=/tmp/ssr-jest-cache "${environment[@]}"
status=$?
if [ "${#environment[@]}" -gt 0 ] && [ "$(cat "$helpers/env.cjs" "$helpers/original-env" 2>/dev/null | sha256sum)" != "$before" ]; then
  echo "ssr-tampered: ssr's test environment was changed on disk during the run"
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
