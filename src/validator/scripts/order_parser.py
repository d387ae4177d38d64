#!/usr/bin/env python3
"""Log of the order-independence run on stdin -> {"alone::<id>" | "reversed::<id>": status} on stdout.

`@@ssr-alone <exit> <id>` lines: the test run alone; exit 0 passed, 1 failed, anything else
(not found, usage, interrupted) is left out: not judged. Between `@@ssr-reversed-start` and
`@@ssr-reversed-end`, the oracle tests in reverse order: pytest `-rA` summary lines
(PASSED/FAILED/ERROR <id>) or unittest `-v` lines (`name (<id>) ... ok|FAIL|ERROR`, the verdict
maybe on the next line after a docstring). Failed wins over a duplicate pass.

JS runners: `@@ssr-alone-begin <id>` ... `@@ssr-alone-end <exit> <id>` blocks hold one test's
run alone. The counts of what ran come from the runner's own summary: Jest / Vitest JSON
(`numPassedTests`, `numFailedTests`), node:test TAP (`# pass N`, `# fail N`), Mocha JSON
(`passes`, `failures`), else the TAP points (`ok` / `not ok`, SKIP and TODO left out). Passed:
exit 0, at least one pass, no failure; failed: a non-zero exit and at least one failure; else
(nothing matched the name, the runner did not start) not judged.
"""
import json
import re
import sys

ALONE = re.compile(r"^@@ssr-alone (\d+) (.+)$")
PYTEST = re.compile(r"^(PASSED|FAILED|ERROR) (\S+?(?:\[[^\]]*\])?)(?: - .*)?$")
UNITTEST_ID = re.compile(r"^\w+ \(([\w.]+)\)")
UNITTEST_VERDICT = re.compile(r" \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$")
BLOCK_BEGIN = re.compile(r"^@@ssr-alone-begin (.+)$")
BLOCK_END = re.compile(r"^@@ssr-alone-end (\d+) (.+)$")
COUNTS = [
    (re.compile(r'"numPassedTests":\s*(\d+)'), re.compile(r'"numFailedTests":\s*(\d+)')),
    (re.compile(r"^# pass (\d+)$", re.M), re.compile(r"^# fail (\d+)$", re.M)),
    (re.compile(r'"passes":\s*(\d+)'), re.compile(r'"failures":\s*(\d+)')),
]
TAP_OK = re.compile(r"^\s*ok\b(?!.*#\s*(?:SKIP|TODO))", re.M | re.I)
TAP_NOT_OK = re.compile(r"^\s*not ok\b(?!.*#\s*(?:SKIP|TODO))", re.M | re.I)
PYTEST_STATUS = {"PASSED": "passed", "FAILED": "failed", "ERROR": "failed"}
UNITTEST_STATUS = {"ok": "passed", "FAIL": "failed", "ERROR": "failed", "unexpected success": "failed"}

statuses = {}


def put(key, status):
    if status is not None and statuses.get(key) != "failed":
        statuses[key] = status


def block_status(exit_code, text):
    """The verdict on one JS test run alone, from its runner's own counts (see the docstring)."""
    for passed_re, failed_re in COUNTS:
        passed, failed = passed_re.search(text), failed_re.search(text)
        if passed and failed:
            passes, failures = int(passed[1]), int(failed[1])
            break
    else:
        passes, failures = len(TAP_OK.findall(text)), len(TAP_NOT_OK.findall(text))
    if exit_code == 0 and passes > 0 and failures == 0:
        return "passed"
    if exit_code != 0 and failures > 0:
        return "failed"
    return None


reversed_part = False
pending = None
block = None
for line in sys.stdin.read().splitlines():
    line = line.rstrip()
    end = BLOCK_END.match(line)
    if end and block is not None and end[2] == block[0]:
        put("alone::" + block[0], block_status(int(end[1]), "\n".join(block[1])))
        block = None
        continue
    if block is not None:
        block[1].append(line)
        continue
    begin = BLOCK_BEGIN.match(line)
    if begin:
        block = (begin[1], [])
        continue
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
