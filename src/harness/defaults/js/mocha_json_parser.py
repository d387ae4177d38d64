#!/usr/bin/env python3
"""Mocha (`--reporter json --reporter-option output=FILE`) parser: the test script's log on
stdin -> {"test id": "passed" | "failed"} on stdout.

The test script prints the report file after the run between the lines
`ssr-json-report-begin` and `ssr-json-report-end`; only the LAST such block counts, so
what a test prints (it comes earlier in the log) cannot plant results. Where the test driver
offers its FIFO, mocha.sh's guard sends the report through it instead and the driver appends it
to the log after the run (supervised_text); then only that block counts.
When the script commits to a nonce first (`ssr-json-report-commit:`), only the first block
followed by that nonce counts instead (see report_text): a block code under test writes into
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
import hashlib
import json
import os
import re
import sys

BEGIN = "ssr-json-report-begin"
END = "ssr-json-report-end"
SUPERVISED_BEGIN = "ssr-json-report-supervised-begin"
SUPERVISED_END = "ssr-json-report-supervised-end"
COMMIT = re.compile(r"^ssr-json-report-commit: ([0-9a-f]{64})$")
REVEAL = re.compile(r"^ssr-json-report-nonce: ([0-9a-f]{16,})$")
REPO = "/repo"
TAMPER_ID = "ssr-tampered: "


def supervised_text(log):
    """The report the test driver itself appended (`ssr-json-report-supervised-begin <exit>` ...
    `ssr-json-report-supervised-end`, see report-fifo.ts), or None when there is none, or "" when
    the one that counts does not: the last block is the driver's (it appends one after any such
    line in the log), and only a script that exited 0 or 1 ran a runner that wrote its report."""
    lines = log.splitlines()
    begins = [index for index, line in enumerate(lines) if line.strip().split(" ")[0] == SUPERVISED_BEGIN]
    if not begins:
        return None
    fields = lines[begins[-1]].split()
    body = lines[begins[-1] + 1:]
    ends = [index for index, line in enumerate(body) if line.strip() == SUPERVISED_END]
    if len(fields) != 2 or fields[1] not in ("0", "1") or not ends:
        return ""
    text = "\n".join(body[: ends[-1]])
    try:
        json.loads(text)
    except ValueError:  # more than one report went into the FIFO: none of them is the runner's alone
        return ""
    return text


def report_text(log):
    """The text of the report block that counts, or None.

    A block the test driver appended (supervised_text) is the only one that counts when there is
    one: the report never passed through a file a process of the test user could rewrite.

    With a commitment (`ssr-json-report-commit: <sha256>`, printed by the script before the runner
    starts): there must be exactly one, and the block that counts is the first complete one whose
    end line is followed by `ssr-json-report-nonce: <nonce>` with that SHA-256. Code under test
    does not know the nonce before the script reveals it after the report, so a block it writes
    into the log (and then kills the script, so the real one never prints) counts nothing, and one
    it appends after the reveal comes after the real block. Without a commitment (older scripts):
    the last complete block."""
    supervised = supervised_text(log)
    if supervised is not None:
        return supervised or None
    lines = log.splitlines()
    commits = {m.group(1) for m in (COMMIT.match(line.strip()) for line in lines) if m}
    if commits:
        if len(commits) > 1:
            return None
        commit = commits.pop()
        start = None
        for index, line in enumerate(lines):
            text = line.strip()
            if text == BEGIN:
                start = index
            elif text == END and start is not None:
                reveal = REVEAL.match(lines[index + 1].strip()) if index + 1 < len(lines) else None
                if reveal and hashlib.sha256(reveal.group(1).encode()).hexdigest() == commit:
                    return "\n".join(lines[start + 1:index])
                start = None
        return None
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
