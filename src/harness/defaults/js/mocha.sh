#!/usr/bin/env bash
# Mocha test script: the suite Mocha finds itself (.mocharc, else ./test), its JSON report
# written to a file (`output` reporter option, Mocha >= 9.2) and printed after the run between
# marker lines for mocha_json_parser.py, so what a test prints cannot mix into it.
cd /repo || exit 2
# Forged reports: code under test could write a report block of its own into the log (through
# /proc) and kill this script before the real one prints. So the first line commits to a nonce
# this script holds in a shell variable (never exported, never in a command line) and the line
# after the real block reveals it; the parser counts only a block followed by that nonce.
nonce=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "ssr-json-report-commit: $(printf '%s' "$nonce" | sha256sum | cut -d' ' -f1)"
report=$(mktemp)
# Where the driver offers its FIFO (docs/grading.md, "The JS report travels outside the test user's
# reach"), the report reaches the log through it, never through this script: a process the tests
# left behind could otherwise stop this script, rewrite the report file and let it print that. The
# guard below, in Mocha's process, reads the file the JSON reporter just wrote, checks it and writes
# those very bytes into the FIFO (Mocha reads its own report back, so the file stays as well).
supervised=
if [ -n "${SSR_REPORT_FIFO:-}" ] && [ -p "$SSR_REPORT_FIFO" ]; then
  supervised=1
  echo ssr-json-report-supervised
fi
# In-process tampering: Mocha runs the tests in the same process as the code under test, which
# could rebind the runner's methods (Runner.prototype.fail, Runnable.prototype.run), EventEmitter's
# emit, the `it`/`describe` globals or node:assert. A module loaded with --require before any test
# file makes those non-configurable accessors: a reassignment from outside Mocha's own code is
# recorded (and not applied) as a line `ssr-tampered: <what>` in the log, which
# mocha_json_parser.py reports; and every failure the runner announced must be in the report.
helpers=$(mktemp -d)
cat > "$helpers/guard.cjs" <<'GUARD'
'use strict';
// ssr's integrity layer for Mocha, loaded with --require before any test file (see mocha.sh).
const fs = require('node:fs');
// Taken before any test file loads: code under test may replace fs's functions or the variable.
const { readFileSync, writeFileSync } = fs;
const fifo = process.env.SSR_REPORT_FIFO || '';
const findings = new Set();
// A finding goes into the log at once, at column 0; mocha_json_parser.py reports it.
const tampered = (what) => { if (!findings.has(what)) { findings.add(what); try { fs.writeSync(1, '\nssr-' + 'tampered: ' + what + '\n'); } catch {} } };
const load = (name) => { try { return require(require.resolve(name, { paths: [process.cwd()] })); } catch { return null; } };
// Writes from Mocha's own code (its interfaces set the globals for each file) are allowed.
const fromMocha = (stack) => {
  const frames = String(stack).split('\n').slice(1).filter((line) => !line.includes(__filename) && /\//.test(line));
  return frames.length > 0 && frames[0].includes('/node_modules/mocha/');
};
// Function-valued properties become non-configurable accessors: a reassignment from outside
// Mocha is recorded (and not applied); an assignment on an instance makes its own property.
const guard = (object, label, only) => {
  if (!object) return;
  for (const key of only || Object.getOwnPropertyNames(object)) {
    const desc = Object.getOwnPropertyDescriptor(object, key) || { configurable: true, enumerable: true, value: undefined };
    if (!desc.configurable || !('value' in desc) || (desc.value !== undefined && typeof desc.value !== 'function')) continue;
    let value = desc.value;
    Object.defineProperty(object, key, {
      configurable: false,
      enumerable: desc.enumerable,
      get() { return value; },
      set(next) {
        if (this !== object) Object.defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
        else if (fromMocha(new Error().stack)) value = next;
        else tampered(label + '.' + key + ' reassigned');
      },
    });
  }
};
const mocha = load('mocha');
if (mocha && mocha.Runner) {
  // Every failure the runner announces must be in the report the JSON reporter writes.
  const run = mocha.Runner.prototype.run;
  mocha.Runner.prototype.run = function (fn, opts) {
    const failed = [];
    this.on('fail', (test) => { try { failed.push(test.fullTitle()); } catch {} });
    this.once('end', () => {
      const output = process.env.SSR_MOCHA_REPORT;
      let report = null;
      let text = '';
      try { text = readFileSync(output, 'utf8'); report = JSON.parse(text); } catch { return; }
      if (fifo) { try { writeFileSync(fifo, text); } catch {} }
      const reported = new Set((report.failures || []).map((test) => test.fullTitle));
      const lost = failed.filter((title) => !reported.has(title));
      if (lost.length > 0) tampered(lost.length + ' failure(s) the runner announced are not in the report: ' + lost.slice(0, 3).join(', '));
    });
    return run.call(this, fn, opts);
  };
  for (const name of ['Runner', 'Runnable', 'Test', 'Suite', 'Hook', 'Context']) guard(mocha[name] && mocha[name].prototype, 'Mocha ' + name + '.prototype');
  guard(mocha.reporters && mocha.reporters.Base && mocha.reporters.Base.prototype, 'Mocha reporters.Base.prototype');
  guard(mocha.reporters && mocha.reporters.JSON && mocha.reporters.JSON.prototype, 'Mocha reporters.JSON.prototype');
  guard(require('node:events').prototype, 'EventEmitter.prototype', ['emit']);
  guard(global, 'global', ['describe', 'context', 'it', 'specify', 'before', 'after', 'beforeEach', 'afterEach', 'xit', 'xdescribe']);
  for (const id of ['node:assert', 'node:assert/strict']) guard(require(id), id);
}
GUARD
before=$(sha256sum < "$helpers/guard.cjs")
export SSR_MOCHA_REPORT="$report"
node_modules/.bin/mocha --require "$helpers/guard.cjs" --reporter json --reporter-option "output=$report" --no-color
status=$?
if [ "$(sha256sum < "$helpers/guard.cjs" 2>/dev/null)" != "$before" ]; then
  echo "ssr-tampered: ssr's Mocha guard was changed on disk during the run"
fi
rm -rf "$helpers"
if [ -z "$supervised" ]; then
echo ssr-json-report-begin
cat "$report"
echo
echo ssr-json-report-end
echo "ssr-json-report-nonce: $nonce"
fi
rm -f "$report"
# Mocha exits with its failure count; the driver's block counts only after an exit of 0 or 1 (a
# runner killed by a signal, 128 + n, wrote nothing of its own).
[ "$status" -gt 0 ] && [ "$status" -lt 128 ] && status=1
exit "$status"
