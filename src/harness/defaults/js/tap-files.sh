#!/usr/bin/env bash
# tape / node-tap test script: each test file under test/ run alone with node (both print TAP
# when run directly), after a line naming it for tap_parser.py (TAP does not name files).
#
# Forged results: tape and node-tap run in the same process as the code under test, and print
# their TAP on that process's stdout, so code under test can print TAP lines of its own there
# (or write them into the log through /proc) and exit before its real failures print. So what a
# test file prints does not count; the TAP that counts comes from the runner itself:
# - A module preloaded with --require (before any test code) takes the runner's own TAP stream
#   (tape's `createStream()`, node-tap's root TAP stream) and writes it to fd 3, a pipe to this
#   script's wrapper, each line prefixed with a random secret the module drew itself and sent as
#   the pipe's first line. A line on fd 3 without that secret (code under test writing there)
#   voids the whole file: its tests are all missing, so failed.
# - The wrapper (a separate node process, the test files' parent) passes the verified lines on
#   prefixed with a nonce this script holds in a shell variable (never exported, never in a
#   command line: the wrapper reads it on stdin), and only once every test file has ended, so
#   while test code runs the log holds no line that shows the nonce. The script's first line
#   commits to the nonce (`ssr-tap-commit: <sha256 of it>`, printed before any test code runs) and
#   its last line declares it; tap_parser.py reads only the lines that carry a declared nonce
#   matching the one commitment, so a declaration of a nonce of the test code's own (after it
#   killed this script, say) makes nothing count. What the test files print goes to the log too,
#   untagged, so a person can read it; it never counts.
# - A test file that exits early (process.exit, a kill) leaves its later tests without results:
#   missing, so failed. tape itself reports the test that was running as not ok.
# Both helper files delete themselves as they load, before any test code runs.
#
# Aggregators are not run: a file whose only statements require or import other test files that
# this loop runs anyway (path-browserify's test/index.js) would report each of their tests a
# second time under its own name, and a weakening that hides a test in its file could not hide
# the copy. Allowed lines: blank, `//` and one-line `/* */` comments, 'use strict', and
# `require('./x');` / `import './x.js';` of an existing file under test/ outside fixtures/.
cd /repo || exit 2
nonce=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
helpers=$(mktemp -d)
cat > "$helpers/preload.cjs" <<'PRELOAD'
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
try { fs.unlinkSync(__filename); } catch {}
const writeSync = fs.writeSync;
const secret = randomBytes(16).toString('hex');
writeSync(3, secret + '\n');
let rest = '';
const send = (chunk) => {
  const lines = (rest + String(chunk)).split('\n');
  rest = lines.pop();
  for (const line of lines) { try { writeSync(3, secret + ' ' + line + '\n'); } catch {} }
};
const flush = () => { if (rest !== '') send('\n'); };
const load = (name) => { try { return require(require.resolve(name, { paths: [process.cwd()] })); } catch { return null; } };
const tape = load('tape');
const tap = tape ? null : load('tap');
// In-process tampering (tape): a finding goes on fd 3 at once, behind the secret, as
// `ssr-tampered: <what>`; tap_parser.py reports it and grading reads it as tampering.
const findings = new Set();
const tampered = (what) => { if (!findings.has(what)) { findings.add(what); send('ssr-tampered: ' + what + '\n'); } };
// The methods of tape's Test and Results prototypes, of the tape module and EventEmitter's emit
// become non-configurable accessors before any test code runs: reassigning one on the prototype is
// recorded (and not applied); tape's own binding of methods onto each instance still works.
const guard = (object, label, only) => {
  if (!object) return;
  for (const key of Object.getOwnPropertyNames(object)) {
    const desc = Object.getOwnPropertyDescriptor(object, key);
    if (!desc.configurable || typeof desc.value !== 'function' || (only && !only.includes(key))) continue;
    const value = desc.value;
    Object.defineProperty(object, key, {
      configurable: false,
      enumerable: desc.enumerable,
      get() { return value; },
      set(next) {
        if (this !== object) Object.defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
        else tampered(label + '.' + key + ' reassigned');
      },
    });
  }
};
const internal = (name) => { try { return require(require.resolve('tape/lib/' + name, { paths: [process.cwd()] })); } catch { return null; } };
let Test = null;
let failures = 0;
let reported = 0;
if (tape && typeof tape.createStream === 'function') {
  Test = internal('test');
  const Results = internal('results');
  // Every failing assertion the runner records must reach the stream as `not ok`: counted by a
  // listener that _watch adds before tape's own encoder.
  if (Results && Results.prototype && typeof Results.prototype._watch === 'function') {
    const watch = Results.prototype._watch;
    Results.prototype._watch = function (t) {
      // The methods tape bound onto this test instance are held the same way as the prototype's.
      for (const key of Object.keys(t)) {
        const value = t[key];
        if (typeof value !== 'function') continue;
        Object.defineProperty(t, key, { configurable: false, enumerable: true, get() { return value; }, set() { tampered('a tape test\'s ' + key + ' reassigned'); } });
      }
      t.on('result', (res) => { if (res && typeof res === 'object' && !res.ok && !res.todo && !res.skip) failures++; });
      return watch.apply(this, arguments);
    };
  }
  guard(Test && Test.prototype, 'tape Test.prototype');
  guard(Results && Results.prototype, 'tape Results.prototype');
  guard(tape, 'tape');
  guard(require('node:events').prototype, 'EventEmitter.prototype', ['emit']);
  tape.createStream().on('data', (chunk) => {
    for (const line of String(chunk).split('\n')) if (/^not ok\b/.test(line.trim())) reported++;
    send(chunk);
  }).on('end', flush);
} else if (tap && typeof tap.on === 'function') {
  tap.on('data', send);
  tap.on('end', flush);
}
// When the file ends: failures recorded but not reported, and a canary failing assertion on a
// fresh Test that must come out failed.
process.on('exit', () => {
  if (Test) {
    if (failures > reported) tampered(failures + ' failing assertion(s) recorded, ' + reported + ' reported not ok');
    const canary = new Test('ssr canary');
    const seen = [];
    canary.on('result', (res) => seen.push(res && res.ok));
    for (const assert of [() => canary.equal(1, 2), () => canary.deepEqual({ a: 1 }, { a: 2 }), () => canary.ok(false)]) {
      try { assert(); } catch {}
    }
    if (seen.length !== 3 || seen.some((ok) => ok !== false)) tampered('the canary failing assertions came out ' + JSON.stringify(seen));
  }
  flush();
});
PRELOAD
cat > "$helpers/wrapper.cjs" <<'WRAPPER'
'use strict';
const fs = require('node:fs');
const { spawn } = require('node:child_process');
try { fs.unlinkSync(__filename); } catch {}
const [preload, ...files] = process.argv.slice(2);
const nonce = fs.readFileSync(0, 'utf8').trim();
fs.closeSync(0);
const out = (text) => fs.writeSync(1, text);
// The counted lines, printed once every test file has ended: while test code runs, the log holds no nonce.
const results = [];
const runFile = (file) => new Promise((resolve) => {
  const source = fs.readFileSync(preload);
  const copy = preload + '.' + Math.random().toString(36).slice(2) + '.cjs';
  fs.writeFileSync(copy, source);
  const child = spawn(process.execPath, ['--require', copy, file], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => out(chunk));
  child.stderr.on('data', (chunk) => out(chunk));
  let secret = null;
  let rest = '';
  let tampered = false;
  const counted = [];
  child.stdio[3].on('data', (chunk) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      if (secret === null) secret = /^[0-9a-f]{32}$/.test(line) ? line : '';
      else if (secret !== '' && line.startsWith(secret + ' ')) counted.push(line.slice(secret.length + 1));
      else tampered = true;
    }
  });
  child.on('close', (code, signal) => {
    try { fs.unlinkSync(copy); } catch {}
    if (rest !== '' || secret === '' || secret === null) tampered = true;
    results.push(nonce + ' ssr-test-file: ' + file.replace(/^\.\//, '') + '\n');
    if (tampered) out('# ssr: results of ' + file + ' not counted: its result channel carried lines the runner did not write\n');
    else for (const line of counted) results.push(nonce + ' ' + line + '\n');
    resolve(code === 0 && signal === null && !tampered);
  });
});
(async () => {
  let ok = true;
  for (const file of files) {
    out('# ssr: running ' + file + '\n');
    if (!(await runFile(file))) ok = false;
  }
  out('\n' + results.join(''));
  process.exit(ok ? 0 : 1);
})();
WRAPPER
runs_alone() { # <required path> <requiring file>
  local candidate path
  for candidate in "$1" "$1.js" "$1.mjs" "$1.cjs" "$1/index.js"; do
    [ -f "$candidate" ] || continue
    path=$(realpath -m --relative-to=. "$candidate")
    [ "$path" != "$(realpath -m --relative-to=. "$2")" ] || return 1
    case "$path" in
      */fixtures/*) return 1 ;;
      test/*.js | test/*.mjs | test/*.cjs) return 0 ;;
      *) return 1 ;;
    esac
  done
  return 1
}
aggregator() {
  local line target required=0
  local statement="^(require\\(['\"](\\.\\.?/[^'\"]+)['\"]\\)|import[[:space:]]+['\"](\\.\\.?/[^'\"]+)['\"])[[:space:]]*;?$"
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%$'\r'}
    line=${line#"${line%%[![:space:]]*}"}
    line=${line%"${line##*[![:space:]]}"}
    case "$line" in
      '' | //* | "'use strict'" | "'use strict';" | '"use strict"' | '"use strict";') continue ;;
      /\**\*/) [[ ${line:2:${#line}-4} != *'*/'* ]] && continue ;;
    esac
    [[ $line =~ $statement ]] || return 1
    target=${BASH_REMATCH[2]}
    [ -n "$target" ] || target=${BASH_REMATCH[3]}
    runs_alone "$(dirname "$1")/$target" "$1" || return 1
    required=1
  done < "$1"
  [ "$required" = 1 ]
}
files=()
while IFS= read -r -d '' file; do
  if aggregator "$file"; then
    echo "ssr: not running ${file#./}: it only requires test files that run on their own" >&2
    continue
  fi
  files+=("$file")
done < <(find ./test -type f \( -name '*.js' -o -name '*.mjs' -o -name '*.cjs' \) -not -path '*/fixtures/*' -print0 | sort -z)
echo "ssr-tap-commit: $(printf '%s' "$nonce" | sha256sum | cut -d' ' -f1)"
status=0
if [ "${#files[@]}" -gt 0 ]; then
  node "$helpers/wrapper.cjs" "$helpers/preload.cjs" "${files[@]}" <<< "$nonce" || status=1
fi
rm -rf "$helpers"
echo "ssr-tap-nonce: $nonce"
exit "$status"
