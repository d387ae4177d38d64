#!/usr/bin/env python3
"""Which lines of the code files the test suite executes, and which test files execute each line.

    trace_lines.py FILES.txt [--map MAP.txt] pytest [pytest args...]
    trace_lines.py FILES.txt [--map MAP.txt] unittest [unittest args...]
    trace_lines.py --query MAP.txt CODE_FILE...

FILES.txt lists repo-relative code files, one a line; run from the repo root. Runs the suite
in-process under sys.settrace (stdlib only) and prints, for each listed file that ran at all:

    @@cov PATH 1-4,7,9-30

The procedural Injector mutates covered lines only: a mutation no test executes cannot break one.

With --map, it also writes which test file was running when each line ran (pytest: the test
item's file, a doctest's module included; unittest: the test case's module file), so a change can
be tried against only the test files that execute its lines. Lines that ran outside any test
(imports at collection, setUpClass) are marked `*`: a change there can reach any test. Lines a
pytest fixture broader than a function runs while it is set up (session, package, module, class;
a conftest's or the package code it calls) belong to every test file whose tests use that fixture,
not only to the file whose test set it up first: the later files read the value it made. One
requested by name at run time (request.getfixturevalue), whose users cannot be known, is `*`.
MAP.txt holds, and --query prints for the named code files:

    @@tfile N PATH                        test file number N (every test file that ran, lines or not)
    @@tcov PATH RANGES N,N,*              lines of PATH that exactly those test files executed
    @@trace ok TESTS                      the traced run finished with tracing intact (TESTS tests run)
    @@trace disturbed TEST                a test replaced the tracer (a debugger, coverage): the map is partial
    @@tquery N                            (--query) the number of @@tfile and @@tcov lines printed before it

No `@@trace ok` line means the map cannot be trusted (the run crashed or timed out under tracing).
"""
import os
import sys
import threading

COLLECTION = "*"


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


def write_map(handle, contexts, seen, relative, status):
    """contexts: context -> {filename: lines}; the map groups each file's lines by the set of contexts that ran them."""
    numbers = {}
    for context in sorted(seen):
        numbers[context] = len(numbers)
        handle.write(f"@@tfile {numbers[context]} {context}\n")
    by_line = {}
    for context, files in contexts.items():
        key = COLLECTION if context == COLLECTION else str(numbers[context])
        for filename, lines in files.items():
            per_file = by_line.setdefault(relative(filename), {})
            for line in lines:
                per_file.setdefault(line, set()).add(key)
    for path in sorted(by_line):
        groups = {}
        for line, keys in by_line[path].items():
            groups.setdefault(",".join(sorted(keys, key=lambda k: (k != COLLECTION, int(k) if k != COLLECTION else 0))), []).append(line)
        for keys, lines in sorted(groups.items(), key=lambda item: min(item[1])):
            handle.write(f"@@tcov {path} {ranges(lines)} {keys}\n")
    handle.write(f"@@trace {status}\n")


def share_fixture_lines(contexts, shared, users):
    """Credit each broad fixture's set-up lines (shared: fixture -> (triggers, {filename: lines}))
    to the contexts of every test file using it (users: fixture -> files; None: unknown, so `*`)."""
    for fixture, (triggers, files) in shared.items():
        targets = set(triggers) | users.get(fixture, set())
        for target in {COLLECTION if target is None else target for target in targets}:
            context = contexts.setdefault(target, {})
            for filename, lines in files.items():
                context.setdefault(filename, set()).update(lines)


def query(map_path, files):
    """The map's lines for `files`, then `@@tquery N`: how many @@tfile/@@tcov lines came before (a cut output shows)."""
    wanted = set(files)
    printed = 0
    trace = ""
    with open(map_path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("@@trace "):
                trace = line
            elif line.startswith("@@tfile ") or (line.startswith("@@tcov ") and line[len("@@tcov "):].rsplit(" ", 2)[0] in wanted):
                sys.stdout.write(line)
                printed += 1
    sys.stdout.write(f"{trace}@@tquery {printed}\n")


def main():
    if sys.argv[1] == "--query":
        return query(sys.argv[2], sys.argv[3:])
    root = os.getcwd()
    with open(sys.argv[1], encoding="utf-8") as handle:
        wanted = {os.path.realpath(os.path.join(root, line.strip())): line.strip() for line in handle if line.strip()}
    args = sys.argv[2:]
    map_path = None
    if args[0] == "--map":
        map_path, args = args[1], args[2:]
    kind, rest = args[0], args[1:]
    contexts = {COLLECTION: {}}
    current = [contexts[COLLECTION]]
    seen = set()
    state = {"tests": 0, "disturbed": None, "item": None, "context": None}
    # Broad pytest fixtures: fixture -> (the contexts that set it up, {filename: lines}), and the test files using it.
    shared = {}
    users = {}
    known = {}

    def relative(filename):
        if filename not in known:
            known[filename] = wanted.get(os.path.realpath(os.path.abspath(filename)))
        return known[filename]

    def local(frame, event, _arg):
        if event == "line":
            try:
                current[0][frame.f_code.co_filename].add(frame.f_lineno)
            except KeyError:
                current[0][frame.f_code.co_filename] = {frame.f_lineno}
        return local

    def start(frame, _event, _arg):
        filename = frame.f_code.co_filename
        if relative(filename) is None:
            return None
        current[0].setdefault(filename, set()).add(frame.f_lineno)
        return local

    def enter(context):
        """A test of `context` (a repo-relative test file) starts; None: back outside any test."""
        if context is None:
            current[0] = contexts[COLLECTION]
            return
        seen.add(context)
        current[0] = contexts.setdefault(context, {})

    def leave(test):
        state["tests"] += 1
        if state["disturbed"] is None and sys.gettrace() is not start:
            state["disturbed"] = test
        enter(None)

    def file_context(path):
        path = os.path.relpath(os.path.realpath(str(path)), root)
        return None if path.startswith("..") else path

    # `python3 -m pytest` and `-m unittest` put the working directory first on sys.path.
    sys.path.insert(0, root)
    threading.settrace(start)
    sys.settrace(start)
    try:
        if kind == "pytest":
            import pytest

            class Contexts:
                @pytest.hookimpl(hookwrapper=True)
                def pytest_runtest_protocol(self, item, nextitem):
                    context = file_context(getattr(item, "path", None) or item.fspath)
                    for defs in fixture_defs(item).values():
                        for fixture in defs:
                            users.setdefault(fixture, set()).add(context)
                    state["item"], state["context"] = item, context
                    enter(context)
                    yield
                    state["item"] = state["context"] = None
                    leave(item.nodeid)

                @pytest.hookimpl(hookwrapper=True)
                def pytest_fixture_setup(self, fixturedef, request):
                    if getattr(fixturedef, "scope", "function") == "function":
                        yield
                        return
                    item = state["item"]
                    static = item is not None and fixturedef in fixture_defs(item).get(fixturedef.argname, ())
                    triggers, lines = shared.setdefault(fixturedef, (set(), {}))
                    triggers.add(state["context"] if static else None)
                    outer = current[0]
                    current[0] = lines
                    try:
                        yield
                    finally:
                        current[0] = outer

            def fixture_defs(item):
                info = getattr(item, "_fixtureinfo", None)
                return dict(getattr(info, "name2fixturedefs", None) or {})

            pytest.main(rest, plugins=[Contexts()])
        else:
            import unittest

            class Result(unittest.TextTestResult):
                def startTest(self, test):
                    module = sys.modules.get(type(test).__module__)
                    filename = getattr(module, "__file__", None)
                    enter(file_context(filename) if filename else None)
                    super().startTest(test)

                def stopTest(self, test):
                    super().stopTest(test)
                    leave(test.id())

            runner = unittest.TextTestRunner(resultclass=Result)
            unittest.main(module=None, argv=["unittest", *rest], exit=False, testRunner=runner)
    finally:
        intact = sys.gettrace() is start
        sys.settrace(None)
        threading.settrace(None)
    sys.stdout.flush()
    share_fixture_lines(contexts, shared, users)
    hits = {}
    for files in contexts.values():
        for filename, lines in files.items():
            hits.setdefault(filename, set()).update(lines)
    for filename, lines in sorted(hits.items(), key=lambda item: relative(item[0])):
        print(f"@@cov {relative(filename)} {ranges(lines)}")
    if map_path:
        if state["disturbed"] is None and not intact:
            state["disturbed"] = "(the end of the run)"
        status = f"disturbed {state['disturbed']}" if state["disturbed"] else f"ok {state['tests']}"
        with open(map_path, "w", encoding="utf-8") as handle:
            write_map(handle, contexts, seen, relative, status)


if __name__ == "__main__":
    sys.exit(main())
