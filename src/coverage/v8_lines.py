#!/usr/bin/env python3
"""Which lines of JS code files ran, from Node's V8 coverage (`NODE_V8_COVERAGE=<dir>`).

    v8_lines.py CODE_FILES_LIST COVERAGE_DIR [--map MAP.txt TEST_FILES_LIST]

CODE_FILES_LIST names the code files (relative to /repo, one a line); COVERAGE_DIR holds the
`coverage-*.json` files every Node process of the run wrote. Prints one line per code file that
ran at all, as trace_lines.py does:

    @@cov PATH 1-4,7,9-12

V8's block coverage gives, per function, byte ranges with an execution count, nested (a block
inside a function inside the module). A line ran when the innermost range holding its first
non-blank character has a count above zero in some process. Offsets are those of the source as
Node read it: right for plain JavaScript, not for code a loader transforms first (TypeScript,
JSX), which the caller does not ask about. Stdlib only.

With --map, it also writes which test file's process ran each line, in trace_lines.py's map format
(`trace_lines.py --query` reads it): a process that loaded exactly one of TEST_FILES_LIST's files
(ssr's runner scripts run each test file in its own Node process) is that file's; lines another
process ran (the runner's own, one loading several test files) are marked `*`, reachable by any
test. A test file no process of its own ran is missing from the map, which its reader checks.
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


def read_list(path):
    with open(path, encoding="utf-8") as handle:
        return {line.strip() for line in handle if line.strip()}


def write_map(path, per_context, seen, processes):
    numbers = {context: index for index, context in enumerate(sorted(seen))}
    by_line = {}
    for context, files in per_context.items():
        key = "*" if context == "*" else str(numbers[context])
        for file, lines in files.items():
            for line in lines:
                by_line.setdefault(file, {}).setdefault(line, set()).add(key)
    with open(path, "w", encoding="utf-8") as handle:
        for context, number in numbers.items():
            handle.write(f"@@tfile {number} {context}\n")
        for file in sorted(by_line):
            groups = {}
            for line, keys in by_line[file].items():
                groups.setdefault(",".join(sorted(keys, key=lambda k: (k != "*", int(k) if k != "*" else 0))), []).append(line)
            for keys, lines in sorted(groups.items(), key=lambda item: min(item[1])):
                handle.write(f"@@tcov {file} {compact(lines)} {keys}\n")
        handle.write(f"@@trace ok {processes}\n")


def main():
    wanted = read_list(sys.argv[1])
    map_path = sys.argv[4] if len(sys.argv) > 5 and sys.argv[3] == "--map" else None
    tests = read_list(sys.argv[5]) if map_path else set()
    per_context = {}
    seen = set()
    processes = 0
    sources = {}
    ranges = {}
    for name in sorted(os.listdir(sys.argv[2])):
        if not name.endswith(".json"):
            continue
        try:
            with open(os.path.join(sys.argv[2], name), encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            continue
        scripts = [(unquote(str(s.get("url", ""))[len(PREFIX):]), s) for s in data.get("result") or [] if str(s.get("url", "")).startswith(PREFIX)]
        loaded = {path for path, _ in scripts if path in tests}
        context = loaded.pop() if len(loaded) == 1 else "*"
        processes += 1
        if context != "*":
            seen.add(context)
        for path, script in scripts:
            if path not in wanted:
                continue
            found = [(r["startOffset"], r["endOffset"], r["count"]) for f in script.get("functions") or [] for r in f.get("ranges") or []]
            ranges.setdefault(path, []).append(found)
            if map_path:
                if path not in sources:
                    sources[path] = read_source(path)
                if sources[path] is not None:
                    per_context.setdefault(context, {}).setdefault(path, set()).update(executed(sources[path], found))
    for path in sorted(ranges):
        source = sources.get(path) or read_source(path)
        if source is None:
            continue
        lines = set()
        for found in ranges[path]:
            lines |= executed(source, found)
        if lines:
            print(f"@@cov {path} {compact(lines)}")
    if map_path:
        write_map(map_path, per_context, seen, processes)
    return 0


def read_source(path):
    try:
        with open(os.path.join("/repo", path), encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


if __name__ == "__main__":
    sys.exit(main())
