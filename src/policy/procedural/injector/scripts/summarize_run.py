#!/usr/bin/env python3
"""Condense one test run for the procedural Injector (it reads this, not the raw log).

    summarize_run.py --kind pytest|unittest|js --log RUN.log --statuses RUN.json
                     [--parser PARSER.py] [--baseline O.json] [--fails] [--limit N] [--ran GROUP...]

RUN.json is what the artifact's own test parser printed for RUN.log. With --parser, this process
runs PARSER.py first, as `python3 PARSER.py < RUN.log > RUN.json` would (its own stdin, stdout and
argv, run as __main__), and stops with status 1 when it fails: one Python start per run, not two. Prints lines starting
with "@@" (everything else on stdout can be ignored):

    @@run passed=N failed=M
    @@group KEY passed=N failed=M         per test file (pytest, js) or test module (unittest)
    @@fail ID<TAB>EXC                     tests failing in this run (without --baseline, or with --fails)
    @@broken ID<TAB>EXC<TAB>LINE          with --baseline: passed there, not passed here
    @@more N                              how many @@fail / @@broken lines were left out (--limit, default 200, each)
    @@durations N                         how many @@dur lines follow
    @@dur GROUP SECONDS                   per test file, the time its tests took (pytest --durations=0 printed it;
                                          setup, call and teardown added; those under 5 ms pytest hides are left out)

EXC is the exception class that made the test fail ("AssertionError", "NameError"; "missing"
when the test did not run at all, "collection" for a module that failed to import). LINE is the
line of the test file where a pytest test failed (from --tb=short frames), or a JS test (from
its stack, see js_failures.py, which must sit next to this file for --kind js), or "-".

--ran names the groups (test files; unittest: modules) a restricted run ran, with --baseline: every
baseline test of another group did not run and keeps its baseline status, and RUN.json is rewritten
with them, so it reads as the whole suite's map (the tests left out do not execute the change).
"""
import argparse
import json
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
EXC = re.compile(r"^([A-Za-z_][\w.]*)(?::|$)")
# unittest's final report: "ERROR: test_x (mod.Class.test_x)" then a traceback.
UNITTEST_BLOCK = re.compile(r"^(FAIL|ERROR): ([\w.]+) \(([\w.]+)\)")
FAILED_IMPORT = "unittest.loader._FailedTest."
PYTEST_HEADER = re.compile(r"^_{3,} (.+?) _{3,}$")
PYTEST_FRAME = re.compile(r"^([^\s:][^:]*\.py):(\d+): in (\S+)")
# A failing doctest ends its report with the failing example's line: "/repo/pkg/mod.py:135: DocTestFailure".
DOCTEST_WHERE = re.compile(r"^([^\s:][^:]*\.py):(\d+): (?:DocTestFailure|UnexpectedException)$")
DOCTEST_HEADER = "[doctest] "
# pytest --durations=0: "0.52s call     tests/test_x.py::test_y" (setup and teardown lines alike).
PYTEST_DURATION = re.compile(r"^(\d+(?:\.\d+)?)s (?:setup|call|teardown) +(\S.*)$")


def pytest_id(rest):
    depth = 0
    for index, char in enumerate(rest):
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif char == " " and depth == 0:
            return rest[:index]
    return rest


def short_exc(text):
    if text.startswith("assert"):
        return "AssertionError"  # pytest's rewritten asserts show the expression, not the class
    match = EXC.match(text.strip())
    return match.group(1).split(".")[-1] if match else "Error"


def pytest_details(lines):
    """id -> exception class, from the short summary; header -> failing test-file line, from tracebacks."""
    excs = {}
    for line in lines:
        for word in ("FAILED ", "ERROR "):
            if line.startswith(word):
                rest = line[len(word):]
                test = pytest_id(rest)
                tail = rest[len(test):]
                if "::" not in test:
                    excs[test] = "collection"
                else:
                    excs[test] = short_exc(tail[3:]) if tail.startswith(" - ") else "Error"
    where = {}
    header = None
    for line in lines:
        match = PYTEST_HEADER.match(line)
        if match:
            header = match.group(1)
            continue
        doctest = DOCTEST_WHERE.match(line)
        if header and header.startswith(DOCTEST_HEADER) and doctest:
            where[header[len(DOCTEST_HEADER):]] = (doctest.group(1), doctest.group(2))
            continue
        frame = PYTEST_FRAME.match(line)
        if header and frame:
            name = header.split("[")[0].split(".")[-1]
            if frame.group(3) == name:
                where[header] = (frame.group(1), frame.group(2))
    return excs, where


def pytest_durations(lines):
    """group (test file) -> seconds its tests took, from pytest's --durations report."""
    out = {}
    for line in lines:
        match = PYTEST_DURATION.match(line)
        if match:
            group = group_of("pytest", match.group(2))
            out[group] = out.get(group, 0.0) + float(match.group(1))
    return out


def unittest_details(lines):
    excs = {}
    current = None
    for line in lines:
        block = UNITTEST_BLOCK.match(line)
        if block:
            name, dotted = block.group(2), block.group(3)
            if dotted.startswith(FAILED_IMPORT):
                current = dotted[len(FAILED_IMPORT):]
                excs[current] = "collection"
                current = None
                continue
            current = dotted if dotted.endswith("." + name) else dotted + "." + name
            continue
        if current and line and not line[0].isspace() and not line.startswith(("Traceback", "---", "===")):
            excs[current] = short_exc(line)
            current = None
    return excs, {}


def line_of(test, where):
    """The failing line of a pytest test, matched through its traceback header."""
    if "::" not in test:
        return "-"
    path, _, tail = test.partition("::")
    found = where.get(tail.replace("::", "."))
    same = found and (found[0] == path or found[0].endswith("/" + path))
    return found[1] if same else "-"


def group_of(kind, test):
    if kind == "pytest":
        return test.split("::", 1)[0]
    if kind == "js":
        return test.split(" > ", 1)[0]
    parts = test.split(".")
    return ".".join(parts[:-2]) if len(parts) > 2 else parts[0]


def run_parser(path, log, statuses):
    """PARSER.py on RUN.log into RUN.json in this process; False (its traceback on stderr) when it fails."""
    import runpy
    import traceback
    saved = sys.stdin, sys.stdout, sys.argv
    stdin_enc = getattr(saved[0], "encoding", None) or "utf-8"
    stdout_enc = getattr(saved[1], "encoding", None) or "utf-8"
    code = 0
    with open(log, encoding=stdin_enc, errors=getattr(saved[0], "errors", None) or "strict") as stdin, \
            open(statuses, "w", encoding=stdout_enc, errors=getattr(saved[1], "errors", None) or "strict") as stdout:
        sys.stdin, sys.stdout, sys.argv = stdin, stdout, [path]
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        except Exception:  # the parser crashed: as a separate process it would have exited 1
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush()
            sys.stdin, sys.stdout, sys.argv = saved
    return code == 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=["pytest", "unittest", "js"], required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--statuses", required=True)
    parser.add_argument("--baseline")
    parser.add_argument("--fails", action="store_true")
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--ran", nargs="+")
    parser.add_argument("--parser")
    args = parser.parse_args()
    if args.parser and not run_parser(args.parser, args.log, args.statuses):
        return 1
    with open(args.log, encoding="utf-8", errors="replace") as handle:
        lines = [ANSI.sub("", raw).rstrip() for raw in handle.read().splitlines()]
    try:
        with open(args.statuses, encoding="utf-8") as handle:
            statuses = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"@@error parser output unreadable: {error}")
        return 1
    if args.ran and args.baseline:
        ran = set(args.ran)
        with open(args.baseline, encoding="utf-8") as handle:
            for test, status in json.load(handle).items():
                if test not in statuses and group_of(args.kind, test) not in ran:
                    statuses[test] = status
        with open(args.statuses, "w", encoding="utf-8") as handle:
            json.dump(statuses, handle)
    if args.kind == "js":
        from js_failures import details  # next to this script
        excs, where = details(lines, statuses)
    else:
        excs, where = pytest_details(lines) if args.kind == "pytest" else unittest_details(lines)

    passed = sum(1 for s in statuses.values() if s == "passed")
    print(f"@@run passed={passed} failed={len(statuses) - passed}")
    groups = {}
    for test, status in statuses.items():
        counts = groups.setdefault(group_of(args.kind, test), [0, 0])
        counts[0 if status == "passed" else 1] += 1
    for key in sorted(groups):
        print(f"@@group {key} passed={groups[key][0]} failed={groups[key][1]}")
    durations = pytest_durations(lines) if args.kind == "pytest" else {}
    if durations:
        print(f"@@durations {len(durations)}")  # a reader whose output was cut short sees fewer @@dur lines
    for key, seconds in sorted(durations.items()):
        print(f"@@dur {key} {seconds:.3f}")

    left_out = 0
    if args.baseline:
        with open(args.baseline, encoding="utf-8") as handle:
            baseline = json.load(handle)
        listed = [t for t in sorted(baseline) if baseline[t] == "passed" and statuses.get(t) != "passed"]
        listed += sorted(t for t, e in excs.items() if e == "collection" and t not in listed)
        for test in listed[: args.limit]:
            exc = excs.get(test, "missing" if test not in statuses else "Error")
            line = where.get(test, "-") if args.kind == "js" else line_of(test, where)
            print(f"@@broken {test}\t{exc}\t{line}")
        left_out += max(0, len(listed) - args.limit)
    if args.fails or not args.baseline:
        failing = [t for t in sorted(statuses) if statuses[t] != "passed"]
        for test in failing[: args.limit]:
            print(f"@@fail {test}\t{excs.get(test, 'Error')}")
        left_out += max(0, len(failing) - args.limit)
    if left_out:
        print(f"@@more {left_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
