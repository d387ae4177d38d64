#!/usr/bin/env python3
"""Log of the order-independence run on stdin -> {"alone::<id>" | "reversed::<id>": status} on stdout.

`@@ssr-alone <exit> <id>` lines: the test run alone; exit 0 passed, 1 failed, anything else
(not found, usage, interrupted) is left out: not judged. Between `@@ssr-reversed-start` and
`@@ssr-reversed-end`, the oracle tests in reverse order: pytest `-rA` summary lines
(PASSED/FAILED/ERROR <id>) or unittest `-v` lines (`name (<id>) ... ok|FAIL|ERROR`, the verdict
maybe on the next line after a docstring). Failed wins over a duplicate pass.
"""
import json
import re
import sys

ALONE = re.compile(r"^@@ssr-alone (\d+) (.+)$")
PYTEST = re.compile(r"^(PASSED|FAILED|ERROR) (\S+?(?:\[[^\]]*\])?)(?: - .*)?$")
UNITTEST_ID = re.compile(r"^\w+ \(([\w.]+)\)")
UNITTEST_VERDICT = re.compile(r" \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$")
PYTEST_STATUS = {"PASSED": "passed", "FAILED": "failed", "ERROR": "failed"}
UNITTEST_STATUS = {"ok": "passed", "FAIL": "failed", "ERROR": "failed", "unexpected success": "failed"}

statuses = {}


def put(key, status):
    if status is not None and statuses.get(key) != "failed":
        statuses[key] = status


reversed_part = False
pending = None
for line in sys.stdin.read().splitlines():
    line = line.rstrip()
    alone = ALONE.match(line)
    if alone:
        put("alone::" + alone[2], {"0": "passed", "1": "failed"}.get(alone[1]))
        continue
    if line == "@@ssr-reversed-start":
        reversed_part = True
        continue
    if line.startswith("@@ssr-reversed-end"):
        reversed_part = False
        continue
    if not reversed_part:
        continue
    result = PYTEST.match(line)
    if result:
        put("reversed::" + result[2], PYTEST_STATUS[result[1]])
        continue
    named = UNITTEST_ID.match(line)
    if named:
        pending = named[1]
    verdict = UNITTEST_VERDICT.search(line)
    if verdict and pending:
        put("reversed::" + pending, UNITTEST_STATUS.get(verdict[1]))
        pending = None
json.dump(statuses, sys.stdout, indent=1, sort_keys=True)
sys.stdout.write("\n")
