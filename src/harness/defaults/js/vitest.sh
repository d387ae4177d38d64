#!/usr/bin/env bash
# Vitest test script: the repo's whole suite once (`run`, never watch), its Jest-shaped JSON
# report printed after the run between marker lines for jest_json_parser.py. The report goes to
# a file (not stdout) so that what a test prints cannot mix into it.
cd /repo || exit 2
report=$(mktemp)
node_modules/.bin/vitest run --reporter=json --outputFile="$report" --color=false
status=$?
echo ssr-json-report-begin
cat "$report"
echo
echo ssr-json-report-end
rm -f "$report"
exit "$status"
