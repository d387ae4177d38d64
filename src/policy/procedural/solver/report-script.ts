/**
 * The Python helper the Solver writes into its sandbox (stdlib only, Python ≥ 3.6). It condenses
 * one test run into a few kilobytes that fit a tool observation: a pytest `-rA --tb=short` log
 * becomes its failing test ids and the code frames of their tracebacks, and a `coverage json
 * --show-contexts` report (dynamic context `test_function`) becomes the per-line spectrum of
 * spectrum-based fault localisation: for each line of a code file that a failing test executed,
 * how many failing and passing tests executed it. {@link readRunReport} parses what it prints.
 *
 * Tests are matched to coverage contexts by `module.Class.function` (coverage names a context
 * after the test function's frame; parametrized cases share one context, which fails if any
 * case failed). The spectrum is printed most suspicious first (Ochiai order) and cut at
 * `--limit` lines, so a cut keeps the lines worth trying.
 *
 * Usage: `python3 report.py --log LOG [--exit CODE] [--seconds S] [--cov COV.json] [--limit N] [--max-failed N]
 * [--promising-below N]` (the last prints `#promising yes` when fewer than N tests failed).
 */
export const REPORT_SCRIPT = String.raw`import argparse, json, math, os, re

RESULT = re.compile(r"^(PASSED|FAILED|ERROR|XPASS) (\S+?(?:\[[^\]]*\])?)(?: - .*)?$")
SUMMARY = re.compile(r"^=+ short test summary info =+$")
FRAME = re.compile(r"^(\S[^:\n]*\.py):(\d+): in \S")
SYNTAX = re.compile(r'^E\s+File "([^"]+\.py)", line (\d+)')
TEST_DIRS = {"tests", "test", "__tests__"}


def is_test_path(path):
    parts = path.split("/")
    name = parts[-1]
    return (any(p in TEST_DIRS for p in parts[:-1]) or name.startswith("test_")
            or name.endswith("_test.py") or name == "conftest.py")


def code_path(path):
    """Repo-relative path of a code (non-test) file, or None."""
    if os.path.isabs(path):
        root = os.getcwd().rstrip("/") + "/"
        if not path.startswith(root):
            return None
        path = path[len(root):]
    if path.startswith("..") or is_test_path(path):
        return None
    return path


def parse_log(text):
    statuses, blocks = {}, []
    in_summary = in_tracebacks = False
    lines = text.splitlines()
    for line in lines:
        if SUMMARY.match(line):
            in_summary, in_tracebacks = True, False
            continue
        if line.startswith("=") and line.rstrip().endswith("="):
            in_summary = False
            in_tracebacks = " FAILURES " in line or " ERRORS " in line
            continue
        if in_summary:
            match = RESULT.match(line)
            if match and statuses.get(match[2]) != "failed":
                statuses[match[2]] = "passed" if match[1] == "PASSED" else "failed"
        elif in_tracebacks:
            if line.startswith("_") and line.rstrip().endswith("_"):
                blocks.append([])
                continue
            match = FRAME.match(line) or SYNTAX.match(line)
            if match and blocks:
                path = code_path(match[1])
                if path:
                    blocks[-1].append((path, int(match[2])))
    if not any(SUMMARY.match(line) for line in lines):
        # No summary: pytest stopped before running tests (a conftest or plugin that fails to
        # import). Its traceback is then the only clue, wherever it was printed.
        crash = [(code_path(m[1]), int(m[2])) for m in map(lambda l: FRAME.match(l) or SYNTAX.match(l), lines) if m]
        blocks = [[frame for frame in crash if frame[0]]]
    return statuses, blocks


def test_key(node_id):
    """'tests/test_a.py::TestX::test_y[1]' -> 'test_a.TestX.test_y' (coverage's context name)."""
    parts = node_id.split("::")
    if len(parts) < 2:
        return None
    module = os.path.splitext(os.path.basename(parts[0]))[0]
    function = re.sub(r"\[.*$", "", parts[-1])
    return ".".join([module] + parts[-2:-1] + [function]) if len(parts) > 2 else module + "." + function


def spectrum(coverage, outcomes, limit):
    key_status = {}
    for node_id, status in outcomes.items():
        key = test_key(node_id)
        if key and key_status.get(key) != "failed":
            key_status[key] = status

    def status_of(context):
        parts = context.split(".")
        for i in range(len(parts)):
            found = key_status.get(".".join(parts[i:]))
            if found:
                return found, ".".join(parts[i:])
        return None, None

    seen, rows, import_time = set(), [], {}
    for path, data in coverage.get("files", {}).items():
        rel = code_path(path)
        if not rel:
            continue
        for line, contexts in data.get("contexts", {}).items():
            if all(not context for context in contexts):
                import_time.setdefault(rel, []).append(int(line))
                continue
            tally = {"failed": set(), "passed": set()}
            for context in contexts:
                status, key = status_of(context) if context else (None, None)
                if status:
                    tally[status].add(key)
                    seen.add(key)
            if tally["failed"]:
                rows.append((rel, int(line), len(tally["failed"]), len(tally["passed"])))
    failed = sum(1 for s in key_status.values() if s == "failed")
    passed = sum(1 for s in key_status.values() if s == "passed")
    unmatched = sum(1 for k, s in key_status.items() if s == "failed" and k not in seen)
    rows.sort(key=lambda r: (-r[2] / math.sqrt(r[2] + r[3]), r[0], r[1]))
    print("#spectrum failed=%d passed=%d unmatched=%d lines=%d" % (failed, passed, unmatched, len(rows)))
    for rel, line, ef, ep in rows[:limit]:
        print("%s\t%d\t%d\t%d" % (rel, line, ef, ep))
    # Module-level code (constants, defaults) runs at import, outside any test's context: list it
    # for the files the failing tests ran, so a broken constant can still be found.
    suspects = sorted(set(r[0] for r in rows[:limit]))
    shown = 0
    for rel in suspects:
        for line in sorted(import_time.get(rel, []))[: max(0, limit - shown)]:
            print("#import %s\t%d" % (rel, line))
            shown += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--exit", default="none")
    parser.add_argument("--seconds", default="0")
    parser.add_argument("--cov")
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--max-failed", type=int, default=150)
    parser.add_argument("--promising-below", type=int)
    args = parser.parse_args()
    try:
        with open(args.log, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        text = ""
    statuses, blocks = parse_log(text)
    failed = sorted(k for k, s in statuses.items() if s == "failed")
    passed = sum(1 for s in statuses.values() if s == "passed")
    summary = "yes" if any(SUMMARY.match(line) for line in text.splitlines()) else "no"
    print("#run exit=%s seconds=%s summary=%s passed=%d failed=%d" % (args.exit, args.seconds, summary, passed, len(failed)))
    for node_id in failed[: args.max_failed]:
        print("#failed " + node_id)
    if args.promising_below is not None:
        # A run that cannot tell (no summary: a selector pytest did not find) counts as promising;
        # one killed by the time limit does not (the edit made the tests hang).
        promising = len(failed) < args.promising_below if summary == "yes" else args.exit != "124"
        print("#promising %s" % ("yes" if promising else "no"))
    hits, deepest = {}, {}
    for block in blocks:
        for frame in set(block):
            hits[frame] = hits.get(frame, 0) + 1
        if block:
            deepest[block[-1]] = deepest.get(block[-1], 0) + 1
    for (path, line), count in sorted(hits.items()):
        print("#frame %s\t%d\t%d\t%d" % (path, line, count, deepest.get((path, line), 0)))
    if args.cov:
        try:
            with open(args.cov, encoding="utf-8") as handle:
                coverage = json.load(handle)
        except (OSError, ValueError) as error:
            print("#spectrum-missing %s" % type(error).__name__)
        else:
            spectrum(coverage, statuses, args.limit)


main()
`;
