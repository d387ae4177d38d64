#!/usr/bin/env bash
# node:test test script: each test file (Node's default `--test` name patterns, node_modules
# left out) run alone under `node --test` with the TAP reporter, after a line naming it for
# tap_parser.py (TAP does not name files). `--test` makes Node print what a test writes as
# "# " comments, so it cannot plant results.
cd /repo || exit 2
status=0
while IFS= read -r -d '' file; do
  echo "ssr-test-file: ${file#./}"
  node --test --test-reporter=tap "$file" || status=1
done < <(find . -path ./node_modules -prune -o -type f \( -name '*.test.js' -o -name '*.test.mjs' -o -name '*.test.cjs' \
  -o -name '*-test.js' -o -name '*-test.mjs' -o -name '*_test.js' -o -name '*_test.mjs' -o -name 'test-*.js' -o -name 'test-*.mjs' \
  -o -name 'test.js' -o -name 'test.mjs' \) -print0 | sort -z)
exit "$status"
