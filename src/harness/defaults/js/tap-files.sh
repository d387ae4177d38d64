#!/usr/bin/env bash
# tape / node-tap test script: each test file under test/ run alone with node (both print TAP
# when run directly), after a line naming it for tap_parser.py (TAP does not name files).
cd /repo || exit 2
status=0
while IFS= read -r -d '' file; do
  echo "ssr-test-file: ${file#./}"
  node "$file" || status=1
done < <(find ./test -type f \( -name '*.js' -o -name '*.mjs' -o -name '*.cjs' \) -not -path '*/fixtures/*' -print0 | sort -z)
exit "$status"
