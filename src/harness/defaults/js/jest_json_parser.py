#!/usr/bin/env python3
"""Jest (`--json`) and Vitest (`--reporter=json`) parser: the test script's log on stdin ->
{"test id": "passed" | "failed"} on stdout. Both runners write the same Jest-shaped report.

Where the test driver offers a FIFO, the runner writes its report there and the driver appends
it to the log after the run (supervised_text); otherwise the runner writes its report to a file
(`--outputFile`) and the test script prints that file after the run, between the lines `ssr-json-report-begin` and `ssr-json-report-end`. Only the
LAST such block counts: text a test prints (Jest and Vitest show console output in the log)
comes before it, so it cannot plant results; a run cut off before the report yields nothing.
When the script commits to a nonce first (`ssr-json-report-commit:`), only the first block
followed by that nonce counts instead (see report_text): a block code under test writes into
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
STATUS = {"passed": "passed", "failed": "failed"}
REPO = "/repo"
TAMPER_ID = "ssr-tampered: "
TAMPERED = re.compile(r"ssr-tampered: ([^\n]*)")


def supervised_text(log):
    """The report the test driver itself appended (`ssr-json-report-supervised-begin <exit>` ...
    `ssr-json-report-supervised-end`, see report-fifo.ts), or None when there is none, or "" when
    the one that counts does not: the last block is the driver's (it appends one after any such
    line in the log), and only a runner that exited 0 or 1 wrote a report of its own."""
    lines = log.splitlines()
    begins = [index for index, line in enumerate(lines) if line.strip().startswith(SUPERVISED_BEGIN + " ") or line.strip() == SUPERVISED_BEGIN]
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
    one: the report never passed through a file the test user could rewrite.

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
