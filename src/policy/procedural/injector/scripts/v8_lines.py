#!/usr/bin/env python3
"""Which lines of JS code files ran, from Node's V8 coverage (`NODE_V8_COVERAGE=<dir>`).

    v8_lines.py CODE_FILES_LIST COVERAGE_DIR

CODE_FILES_LIST names the code files (relative to /repo, one a line); COVERAGE_DIR holds the
`coverage-*.json` files every Node process of the run wrote. Prints one line per code file that
ran at all, as trace_lines.py does:

    @@cov PATH 1-4,7,9-12

V8's block coverage gives, per function, byte ranges with an execution count, nested (a block
inside a function inside the module). A line ran when the innermost range holding its first
non-blank character has a count above zero in some process. Offsets are those of the source as
Node read it: right for plain JavaScript, not for code a loader transforms first (TypeScript,
JSX), which the caller does not ask about. Stdlib only.
"""
import bisect
import json
import os
import sys
from urllib.parse import unquote

PREFIX = "file:///repo/"


def line_starts(source):
    """Offset of the first non-blank character of each line (None for a blank line)."""
    starts = []
    offset = 0
    for line in source.split("\n"):
        stripped = len(line) - len(line.lstrip())
        starts.append(offset + stripped if line.strip() else None)
        offset += len(line) + 1
    return starts


def executed(source, ranges):
    """1-based lines whose innermost range ran; outer ranges are painted first, inner ones over them."""
    starts = line_starts(source)
    offsets = [(s, n) for n, s in enumerate(starts, 1) if s is not None]
    keys = [s for s, _ in offsets]
    counts = {}
    for start, end, count in sorted(ranges, key=lambda r: -(r[1] - r[0])):
        for index in range(bisect.bisect_left(keys, start), bisect.bisect_left(keys, end)):
            counts[offsets[index][1]] = count
    return {line for line, count in counts.items() if count > 0}


def compact(lines):
    out = []
    for line in sorted(lines):
        if out and out[-1][1] == line - 1:
            out[-1][1] = line
        else:
            out.append([line, line])
    return ",".join(f"{a}-{b}" if a != b else str(a) for a, b in out)


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        wanted = {line.strip() for line in handle if line.strip()}
    ranges = {}
    for name in sorted(os.listdir(sys.argv[2])):
        if not name.endswith(".json"):
            continue
        try:
            with open(os.path.join(sys.argv[2], name), encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            continue
        for script in data.get("result") or []:
            url = str(script.get("url", ""))
            if not url.startswith(PREFIX):
                continue
            path = unquote(url[len(PREFIX):])
            if path not in wanted:
                continue
            found = [(r["startOffset"], r["endOffset"], r["count"]) for f in script.get("functions") or [] for r in f.get("ranges") or []]
            ranges.setdefault(path, []).append(found)
    for path in sorted(ranges):
        try:
            with open(os.path.join("/repo", path), encoding="utf-8", errors="replace") as handle:
                source = handle.read()
        except OSError:
            continue
        lines = set()
        for found in ranges[path]:
            lines |= executed(source, found)
        if lines:
            print(f"@@cov {path} {compact(lines)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
