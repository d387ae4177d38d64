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
report=$(mktemp)
node_modules/.bin/jest --ci --json --outputFile="$report" --watchman=false --cacheDirectory=/tmp/ssr-jest-cache
status=$?
echo ssr-json-report-begin
cat "$report"
echo
echo ssr-json-report-end
echo "ssr-json-report-nonce: $nonce"
rm -f "$report"
exit "$status"
