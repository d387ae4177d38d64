#!/usr/bin/env python3
"""Mocha (`--reporter json --reporter-option output=FILE`) parser: the test script's log on
stdin -> {"test id": "passed" | "failed"} on stdout.

The test script prints the report file after the run between the lines
`ssr-json-report-begin` and `ssr-json-report-end`; only the LAST such block counts, so
what a test prints (it comes earlier in the log) cannot plant results. Where the test driver
offers its FIFO, mocha.sh's guard sends the report through it instead and the driver appends it
to the log after the run (supervised_text in json_report_block.py); then only that block counts.
When the script commits to a nonce first (`ssr-json-report-commit:`), only the first block
followed by that nonce counts instead (see report_text in json_report_block.py): a block code under test writes into
the log itself counts nothing.

Id: the file relative to /repo, then Mocha's full title (describe titles and the test title
joined by spaces, as Mocha itself names a test): `test/calc.spec.js > calc nested adds`.
Mapping (method §2): `passes` -> passed; `failures` -> failed, a failing hook included
(Mocha reports it as `"before all" hook for "<test>"`, and the tests it skipped are not run);
`pending` (it.skip, tests without a body) is omitted. Failed wins over passed.

Tampering: a log line `ssr-tampered: <what>` (mocha.sh's guard prints one when code in the tests'
process rebinds Mocha's machinery) becomes the failed id `ssr-tampered: <what>`, which grading
reads as tampering (a forged one can only fail a run); counted only beside a report that counts.
Stdlib only.
"""
import json
import os
import sys

from json_report_block import report_text  # ssr-inline

REPO = "/repo"
TAMPER_ID = "ssr-tampered: "


def test_id(test):
    path = str(test.get("file") or "")
    if os.path.isabs(path) and path.startswith(REPO + "/"):
        path = os.path.relpath(path, REPO)
    title = str(test.get("fullTitle") or test.get("title") or "")
    return f"{path} > {title}" if path else title


def parse(log):
    text = report_text(log)
    if not text or not text.strip():
        return {}
    report = json.loads(text)
    statuses = {}
    for test in report.get("passes") or []:
        statuses[test_id(test)] = "passed"
    for test in report.get("failures") or []:
        statuses[test_id(test)] = "failed"
    for line in log.splitlines():
        if line.startswith(TAMPER_ID) and line[len(TAMPER_ID):].strip():
            statuses[TAMPER_ID + line[len(TAMPER_ID):].strip()[:200]] = "failed"
    return statuses


def main():
    log = sys.stdin.buffer.read().decode("utf-8", "replace")
    json.dump(parse(log), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
