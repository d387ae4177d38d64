#!/usr/bin/env python3
"""Jest (`--json`) and Vitest (`--reporter=json`) parser: the test script's log on stdin ->
{"test id": "passed" | "failed"} on stdout. Both runners write the same Jest-shaped report.

Where the test driver offers a FIFO, the runner writes its report there and the driver appends
it to the log after the run (supervised_text in json_report_block.py); otherwise the runner writes its report to a file
(`--outputFile`) and the test script prints that file after the run, between the lines `ssr-json-report-begin` and `ssr-json-report-end`. Only the
LAST such block counts: text a test prints (Jest and Vitest show console output in the log)
comes before it, so it cannot plant results; a run cut off before the report yields nothing.
When the script commits to a nonce first (`ssr-json-report-commit:`), only the first block
followed by that nonce counts instead (see report_text in json_report_block.py): a block code under test writes into
the log itself counts nothing.

Id: the file relative to /repo, then the describe titles and the test title, joined by " > "
(`test/calc.test.js > calc > nested > adds`). Mapping (method §2): passed -> passed;
failed -> failed; pending, skipped, todo and disabled are omitted. A file that failed to run
(syntax error, missing import: no test results) is reported as its path, failed. When one id
is reported twice (it.each titles that collide), failed wins.

Tampering: the Jest script's integrity environment fails every test of a file in which it found
the runner tampered with, with a message `ssr-tampered: <what>`, and the script prints a line
`ssr-tampered: <what>` when something it checks after the run changed. Each finding becomes one
failed id `ssr-tampered: <file>: <what>` (or `ssr-tampered: <what>`), which grading reads as
tampering (a forged one can only fail a run). Stdlib only.
"""
import json
import os
import re
import sys

from json_report_block import report_text  # ssr-inline

STATUS = {"passed": "passed", "failed": "failed"}
REPO = "/repo"
TAMPER_ID = "ssr-tampered: "
TAMPERED = re.compile(r"ssr-tampered: ([^\n]*)")


def file_id(path):
    if os.path.isabs(path) and (path == REPO or path.startswith(REPO + "/")):
        return os.path.relpath(path, REPO)
    return path


def put(statuses, name, status):
    if statuses.get(name) != "failed":
        statuses[name] = status


def tampered(statuses, prefix, text):
    """A failed id for each `ssr-tampered:` finding in text (first 200 characters of each)."""
    for match in TAMPERED.finditer(text or ""):
        put(statuses, TAMPER_ID + prefix + match.group(1).strip()[:200], "failed")


def parse(log):
    text = report_text(log)
    if not text or not text.strip():
        return {}
    report = json.loads(text)
    statuses = {}
    for line in log.splitlines():
        if line.startswith(TAMPER_ID):
            tampered(statuses, "", line)
    for suite in report.get("testResults") or []:
        path = file_id(str(suite.get("name", "")))
        results = suite.get("assertionResults") or []
        tampered(statuses, path + ": ", str(suite.get("message") or ""))
        for result in results:
            for message in result.get("failureMessages") or []:
                tampered(statuses, path + ": ", str(message))
        if not results and suite.get("status") == "failed":
            put(statuses, path, "failed")
        for result in results:
            status = STATUS.get(result.get("status"))
            if status is None:
                continue
            titles = [str(title) for title in result.get("ancestorTitles") or []] + [str(result.get("title", ""))]
            put(statuses, " > ".join([path] + titles), status)
    return statuses


def main():
    log = sys.stdin.buffer.read().decode("utf-8", "replace")
    json.dump(parse(log), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
