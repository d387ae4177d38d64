#!/usr/bin/env bash
# Mocha test script: the suite Mocha finds itself (.mocharc, else ./test), its JSON report
# written to a file (`output` reporter option, Mocha >= 9.2) and printed after the run between
# marker lines for mocha_json_parser.py, so what a test prints cannot mix into it.
cd /repo || exit 2
report=$(mktemp)
node_modules/.bin/mocha --reporter json --reporter-option "output=$report" --no-color
status=$?
echo ssr-json-report-begin
cat "$report"
echo
echo ssr-json-report-end
rm -f "$report"
exit "$status"
