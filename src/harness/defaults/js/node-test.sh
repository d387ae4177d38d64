#!/usr/bin/env bash
# node:test test script: each test file (Node's default `--test` name patterns, node_modules
# left out) run alone under `node --test`, after a line naming it for tap_parser.py (TAP does not
# name files). `--test` runs the file in a child process and prints what a test writes as "# "
# comments, so plain output cannot plant results.
#
# Forged results: code under test could still write TAP lines straight into the log (it can reach
# the runner's stdout through /proc) and then kill the runner before its real failures print.
# So every line that counts carries a nonce: a random value this script holds in a shell variable
# (never exported, never in a command line). The reporter is Node's own TAP reporter wrapped to
# prefix each line with the nonce; it is written to a fresh file per test file and deletes itself
# as Node loads it, before any test code runs. The script's last line declares the nonce, and
# tap_parser.py then reads only the lines that carry it. The first line commits to the nonce
# (`ssr-tap-commit: <its sha256>`, printed before any test code runs), so a nonce that code under
# test declares after killing this script does not match and nothing counts.
#
# Rebound assertions: code under test runs in the same process as its tests and could replace
# `assert.deepEqual` with a no-op. A module preloaded with --require (Node passes it on to every
# test process) freezes node:assert, node:assert/strict and node:test before any test code runs, so
# such an assignment throws instead (the file then fails to load).
cd /repo || exit 2
nonce=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "ssr-tap-commit: $(printf '%s' "$nonce" | sha256sum | cut -d' ' -f1)"
freeze=$(mktemp --suffix=.cjs)
cat > "$freeze" <<'FREEZE'
for (const id of ['node:assert', 'node:assert/strict', 'node:test']) Object.freeze(require(id));
Object.freeze(require('node:assert').strict);
FREEZE
status=0
while IFS= read -r -d '' file; do
  echo "$nonce ssr-test-file: ${file#./}"
  reporter=$(mktemp --suffix=.mjs)
  cat > "$reporter" <<REPORTER
import { unlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tap } from 'node:test/reporters';
try { unlinkSync(fileURLToPath(import.meta.url)); } catch {}
export default async function* nonceTap(source) {
  let rest = '';
  for await (const chunk of tap(source)) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    if (lines.length > 0) yield lines.map((line) => '$nonce ' + line + '\n').join('');
  }
  if (rest !== '') yield '$nonce ' + rest + '\n';
}
REPORTER
  node --require "$freeze" --test --test-reporter="$reporter" "$file" || status=1
  rm -f "$reporter"
done < <(find . -path ./node_modules -prune -o -type f \( -name '*.test.js' -o -name '*.test.mjs' -o -name '*.test.cjs' \
  -o -name '*-test.js' -o -name '*-test.mjs' -o -name '*_test.js' -o -name '*_test.mjs' -o -name 'test-*.js' -o -name 'test-*.mjs' \
  -o -name 'test.js' -o -name 'test.mjs' \) -print0 | sort -z)
rm -f "$freeze"
echo "ssr-tap-nonce: $nonce"
exit "$status"
