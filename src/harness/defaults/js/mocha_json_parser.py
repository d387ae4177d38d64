#!/usr/bin/env python3
"""Mocha (`--reporter json --reporter-option output=FILE`) parser: the test script's log on
stdin -> {"test id": "passed" | "failed"} on stdout.

The test script prints the report file after the run between the lines
`ssr-json-report-begin` and `ssr-json-report-end`; only the LAST such block counts, so
what a test prints (it comes earlier in the log) cannot plant results.

Id: the file relative to /repo, then Mocha's full title (describe titles and the test title
joined by spaces, as Mocha itself names a test): `test/calc.spec.js > calc nested adds`.
Mapping (SPEC section 2): `passes` -> passed; `failures` -> failed, a failing hook included
(Mocha reports it as `"before all" hook for "<test>"`, and the tests it skipped are not run);
`pending` (it.skip, tests without a body) is omitted. Failed wins over passed. Stdlib only.
"""
import json
import os
import sys

BEGIN = "ssr-json-report-begin"
END = "ssr-json-report-end"
REPO = "/repo"


def report_text(log):
    """The text of the last complete report block, or None."""
    lines = log.splitlines()
    starts = [index for index, line in enumerate(lines) if line.strip() == BEGIN]
    if not starts:
        return None
    body = lines[starts[-1] + 1:]
    ends = [index for index, line in enumerate(body) if line.strip() == END]
    return "\n".join(body[: ends[0]]) if ends else None


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
    return statuses


def main():
    log = sys.stdin.buffer.read().decode("utf-8", "replace")
    json.dump(parse(log), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
