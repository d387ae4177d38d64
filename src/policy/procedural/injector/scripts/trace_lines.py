#!/usr/bin/env python3
"""Which lines of the code files the test suite executes (a tiny line coverage, stdlib only).

    trace_lines.py FILES.txt pytest [pytest args...]
    trace_lines.py FILES.txt unittest [unittest args...]

FILES.txt lists repo-relative code files, one a line; run from the repo root. Runs the suite
in-process under sys.settrace and prints, for each listed file that ran at all:

    @@cov PATH 1-4,7,9-30

The procedural Injector mutates covered lines only: a mutation no test executes cannot break one.
"""
import os
import sys
import threading


def ranges(lines):
    out = []
    start = previous = None
    for line in sorted(lines):
        if previous is not None and line == previous + 1:
            previous = line
            continue
        if start is not None:
            out.append(f"{start}-{previous}" if previous != start else str(start))
        start = previous = line
    if start is not None:
        out.append(f"{start}-{previous}" if previous != start else str(start))
    return ",".join(out)


def main():
    root = os.getcwd()
    with open(sys.argv[1], encoding="utf-8") as handle:
        wanted = {os.path.realpath(os.path.join(root, line.strip())): line.strip() for line in handle if line.strip()}
    kind, rest = sys.argv[2], sys.argv[3:]
    hits = {}
    known = {}

    def relative(filename):
        if filename not in known:
            known[filename] = wanted.get(os.path.realpath(os.path.abspath(filename)))
        return known[filename]

    def local(frame, event, _arg):
        if event == "line":
            hits[frame.f_code.co_filename].add(frame.f_lineno)
        return local

    def start(frame, _event, _arg):
        filename = frame.f_code.co_filename
        if relative(filename) is None:
            return None
        hits.setdefault(filename, set()).add(frame.f_lineno)
        return local

    # `python3 -m pytest` and `-m unittest` put the working directory first on sys.path.
    sys.path.insert(0, root)
    threading.settrace(start)
    sys.settrace(start)
    try:
        if kind == "pytest":
            import pytest

            pytest.main(rest)
        else:
            import unittest

            unittest.main(module=None, argv=["unittest", *rest], exit=False)
    finally:
        sys.settrace(None)
        threading.settrace(None)
    sys.stdout.flush()
    for filename, lines in sorted(hits.items(), key=lambda item: relative(item[0])):
        print(f"@@cov {relative(filename)} {ranges(lines)}")


if __name__ == "__main__":
    main()
