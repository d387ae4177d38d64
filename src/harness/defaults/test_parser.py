#!/usr/bin/env python3
"""Default test parser: pytest `-rA` log on stdin -> {"test id": "passed" | "failed"} on stdout.

Only the "short test summary info" blocks count, and a block counts only once pytest closes it
with its final stats line ("=== 3 passed, 1 failed in 0.12s ==="); a new header drops an
unclosed block. That way text a test prints (captured output shown above the summary) cannot
plant results, and a log cut off by a timeout yields only what pytest actually reported.

Mapping (method §2): PASSED -> passed; FAILED, ERROR and XPASS (an expected failure that
unexpectedly passed) -> failed; XFAIL and SKIPPED are omitted. A collection error reports the
module path as its id. When one id is reported twice (a test that passed but errored in
teardown, or a script that runs pytest twice), failed wins.

Limitation: the id ends at the first space outside square brackets, so a test *path* that
contains a space is cut short (parametrize ids with spaces are fine). Stdlib only.
"""
import json
import re
import sys

STATUS_BY_WORD = {"PASSED": "passed", "FAILED": "failed", "ERROR": "failed", "XPASS": "failed"}
HEADER = re.compile(r"^=+ short test summary info =+$")
# "=== 2 failed, 3 passed in 0.12s ===", "1 passed in 0.01s" (-q), "=== no tests ran in 0.01s ==="
STATS = re.compile(r"^(?:=+ )?(?:no tests ran|\d+ \w+).* in \d+(?:\.\d+)?s\b.*$")
RESULT = re.compile(r"^([A-Z]+) (.+)$")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def test_id(rest):
    """The id at the start of `rest`: up to the first space outside brackets."""
    depth = 0
    for index, char in enumerate(rest):
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif char == " " and depth == 0:
            return rest[:index]
    if depth == 0:
        return rest
    # Unbalanced brackets in a parametrize id: fall back to the first "]" that ends a word.
    match = re.search(r"\](?= |$)", rest)
    return rest[: match.end()] if match else rest.split(" ", 1)[0]


def parse(log):
    statuses = {}
    pending = None
    for raw in log.splitlines():
        line = ANSI.sub("", raw).rstrip()
        if HEADER.match(line):
            pending = {}
            continue
        if pending is None:
            continue
        if STATS.match(line):
            for name, status in pending.items():
                if statuses.get(name) != "failed":
                    statuses[name] = status
            pending = None
            continue
        match = RESULT.match(line)
        if not match or match.group(1) not in STATUS_BY_WORD:
            continue
        name = test_id(match.group(2))
        status = STATUS_BY_WORD[match.group(1)]
        if name and pending.get(name) != "failed":
            pending[name] = status
    return statuses


def main():
    log = sys.stdin.buffer.read().decode("utf-8", "replace")
    json.dump(parse(log), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
