#!/usr/bin/env bash
# Jest test script: the repo's whole suite, its JSON report printed after the run between
# marker lines for jest_json_parser.py. The report goes to a file (not stdout) so that what a
# test prints cannot mix into it; no watchman (none in a sandbox), no cache in the repo.
cd /repo || exit 2
report=$(mktemp)
node_modules/.bin/jest --ci --json --outputFile="$report" --watchman=false --cacheDirectory=/tmp/ssr-jest-cache
status=$?
echo ssr-json-report-begin
cat "$report"
echo
echo ssr-json-report-end
rm -f "$report"
exit "$status"
