#!/usr/bin/env bash
# tape / node-tap test script: each test file under test/ run alone with node (both print TAP
# when run directly), after a line naming it for tap_parser.py (TAP does not name files).
#
# Aggregators are not run: a file whose only statements require or import other test files that
# this loop runs anyway (path-browserify's test/index.js) would report each of their tests a
# second time under its own name, and a weakening that hides a test in its file could not hide
# the copy. Allowed lines: blank, `//` and one-line `/* */` comments, 'use strict', and
# `require('./x');` / `import './x.js';` of an existing file under test/ outside fixtures/.
cd /repo || exit 2
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
status=0
while IFS= read -r -d '' file; do
  if aggregator "$file"; then
    echo "ssr: not running ${file#./}: it only requires test files that run on their own" >&2
    continue
  fi
  echo "ssr-test-file: ${file#./}"
  node "$file" || status=1
done < <(find ./test -type f \( -name '*.js' -o -name '*.mjs' -o -name '*.cjs' \) -not -path '*/fixtures/*' -print0 | sort -z)
exit "$status"
