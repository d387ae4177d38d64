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
node_modules/.bin/mocha --reporter json --reporter-option "output=$report" --no-color
status=$?
echo ssr-json-report-begin
cat "$report"
echo
echo ssr-json-report-end
echo "ssr-json-report-nonce: $nonce"
rm -f "$report"
exit "$status"
