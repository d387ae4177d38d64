#!/usr/bin/env python3
"""Test parser for `python3 -m unittest -v` logs: log on stdin -> {"test id": "passed" | "failed"}.

Test ids are dotted (`tests.test_money.TestMoney.test_add`), whichever Python printed them:
3.11+ shows `test_add (tests.test_money.TestMoney.test_add)`, older versions
`test_add (tests.test_money.TestMoney)`; both give the same id.

Reads the verbose result lines (`<name> (<id>) ... ok`), including a docstring's line printed
between the name and the result, and a result word pushed onto its own line by output the test
printed. Then the FAIL / ERROR / UNEXPECTED SUCCESS blocks of the final report, which are
authoritative: they mark their tests failed whatever the result lines said. A log of several
unittest runs (one per module, say) is read run by run.

Mapping (method §2): ok -> passed; FAIL, ERROR, unexpected success and a failed subtest ->
failed; skipped and expected failure are omitted. A module that fails to import is reported by
unittest as `unittest.loader._FailedTest.<module>`; its id is the module (`tests.test_money`).
An error in setUpClass / setUpModule is reported under its class or module id. Stdlib only.
"""
import json
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
RAN = re.compile(r"^Ran \d+ tests? in ")
HEADER = re.compile(r"^([\w.]+) \(([\w.]+)\)(.*)$")
SUBTEST = re.compile(r"^\s+(\w+) \(([\w.]+)\) .*\.\.\. (FAIL|ERROR)$")
BLOCK = re.compile(r"^(FAIL|ERROR|UNEXPECTED SUCCESS): ([\w.]+) \(([\w.]+)\)")
RESULT_TAIL = re.compile(r"\.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$")
BARE_RESULT = re.compile(r"^(ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$")
FAILED_IMPORT = "unittest.loader._FailedTest."
FIXTURES = ("setUpClass", "tearDownClass", "setUpModule", "tearDownModule")

STATUS_BY_WORD = {"ok": "passed", "FAIL": "failed", "ERROR": "failed", "unexpected success": "failed"}


def test_id(name, dotted):
    """The canonical id of a result line's `name (dotted)` pair."""
    if dotted.startswith(FAILED_IMPORT):
        return dotted[len(FAILED_IMPORT):]
    if name in FIXTURES:
        return dotted
    if dotted == name or dotted.endswith("." + name):
        return dotted
    return dotted + "." + name


def status_of(word):
    """passed / failed for a result word; None for skips and expected failures."""
    if word.startswith("skipped") or word == "expected failure":
        return None
    return STATUS_BY_WORD.get(word)


def record(statuses, name, status):
    if status is None or statuses.get(name) == "failed":
        return
    statuses[name] = status


def parse(log):
    statuses = {}
    pending = None  # id of a result line still waiting for its result word
    in_report = False
    for raw in log.splitlines():
        line = ANSI.sub("", raw).rstrip()
        if line.startswith("=" * 20):
            in_report = True
            pending = None
            continue
        if RAN.match(line):
            # A script may run unittest more than once: result lines follow each report.
            in_report = False
            pending = None
            continue
        block = BLOCK.match(line)
        if block:
            name = test_id(block.group(2), block.group(3))
            statuses[name] = "failed"
            continue
        if in_report:
            continue
        subtest = SUBTEST.match(line)
        if subtest:
            statuses[test_id(subtest.group(1), subtest.group(2))] = "failed"
            pending = None
            continue
        header = HEADER.match(line)
        if header:
            name = test_id(header.group(1), header.group(2))
            tail = RESULT_TAIL.search(header.group(3))
            if tail:
                record(statuses, name, status_of(tail.group(1)))
                pending = None
            else:
                pending = name
            continue
        if pending is not None:
            bare = BARE_RESULT.match(line.strip()) or RESULT_TAIL.search(line)
            if bare:
                record(statuses, pending, status_of(bare.group(1)))
                pending = None
    return statuses


def main():
    log = sys.stdin.buffer.read().decode("utf-8", "replace")
    json.dump(parse(log), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
