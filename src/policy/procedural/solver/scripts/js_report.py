"""The procedural Solver's report of one JavaScript / TypeScript test run (stdlib only, Python >= 3.6).

The JS counterpart of the pytest report (report-script.ts), printing the same lines for
readRunReport: `#run`, `#failed <id>`, `#promising`, `#frame`, `#spectrum` rows and `#import`.

- Outcomes: the runner's own parser (the harness's test_parser.py for it) reads the log.
- Frames: `file:line` of the stack traces in the log (`at f (file:///repo/src/a.mjs:3:9)`),
  code files only, one block per failing test; JS stacks list the innermost frame first.
- Spectrum: V8 coverage (NODE_V8_COVERAGE, block-precise with counts) of each failing test and
  of the passing tests of the same files, run one by one: node:test tests alone by name
  (--test-name-pattern), tape / node-tap / mocha files alone. Vitest and Jest load code through
  their own transforms, so V8 offsets do not map to the files. Vitest (--vitest-coverage): one
  run of the failing tests' files with a setup-file hook that takes V8 coverage through the
  inspector after each test and maps it to the original lines with the transform's inline
  source map (vitest_coverage.mjs). Jest: no spectrum.
  A line counts as executed when the innermost V8 range holding its first character ran; a
  line whose innermost range is the module's own top-level function ran at import (`#import`).
- Without coverage (Jest, or coverage that saw no code file): a static spectrum by
  name. A test "executes" the functions of the modules its test file imports whose names are
  words of its id (`lastN > takes the last items` runs `lastN`), or all their code lines when it
  names none. Ochiai then ranks the functions only failing tests name; printed as
  `#spectrum-static` before the usual header.

Usage: python3 js_report.py --log LOG --parser PARSER --runner RUNNER [--exit CODE] [--seconds S]
  [--cov-dir DIR --cov-tests N --cov-seconds S [--vitest-coverage VITEST_COVERAGE_MJS]] [--limit N] [--max-failed N]
  [--promising-below N]
"""
import argparse, bisect, glob, json, math, os, re, shutil, subprocess, time

CODE_EXT = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
TEST_DIRS = {"test", "tests", "__tests__", "spec", "__mocks__", "node_modules"}
TEST_NAME = re.compile(r"(\.(test|spec)\.[cm]?[jt]sx?$)|(^test[-_.])|([-_]test\.[cm]?[jt]sx?$)")
FRAME = re.compile(r"(?:file://)?((?:/|\.{0,2}[\w@.-]+/)[^\s()'\"`:]*\.(?:[cm]?[jt]sx?)):(\d+)(?::\d+)?")
# A TAP failure may carry the test script's nonce in front (node-test.sh, tap-files.sh).
BLOCK = re.compile(r"^(?:[0-9a-f]{16,} )?\s*not ok\b|\"failureMessages\"\s*:\s*\[\s*\"|\"stack\"\s*:\s*\"", re.M)
SPLIT = " > "
PER_TEST_RUNNERS = {"node-test"}
PER_FILE_RUNNERS = {"tape", "node-tap", "mocha"}


def code_path(path):
    """Repo-relative path of a JS/TS code (non-test) file, or None."""
    if os.path.isabs(path):
        root = os.getcwd().rstrip("/") + "/"
        if not path.startswith(root):
            return None
        path = path[len(root):]
    path = path[2:] if path.startswith("./") else path
    parts = path.split("/")
    if path.startswith("..") or not path.endswith(CODE_EXT) or any(p in TEST_DIRS for p in parts[:-1]):
        return None
    # Frames name Node's own modules too (`node:internal/…`): only files of the repository count.
    return None if TEST_NAME.search(parts[-1]) or not os.path.isfile(path) else path


def parse_statuses(parser, log):
    try:
        with open(log, "rb") as handle:
            out = subprocess.run(["python3", parser], stdin=handle, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60)
        statuses = json.loads(out.stdout.decode("utf-8", "replace") or "{}")
        return {k: v for k, v in statuses.items() if v in ("passed", "failed")} if isinstance(statuses, dict) else {}
    except (OSError, ValueError, subprocess.SubprocessError):
        return {}


def frame_blocks(text, crashed):
    """Per failing test, its code frames innermost first; one block of every frame for a crashed run."""
    def frames(chunk):
        out = []
        for match in FRAME.finditer(chunk):
            path = code_path(match[1])
            if path and (path, int(match[2])) not in out:
                out.append((path, int(match[2])))
        return out
    if crashed:
        return [frames(text)]
    starts = [m.start() for m in BLOCK.finditer(text)]
    return [frames(text[a:b]) for a, b in zip(starts, starts[1:] + [len(text)])]


def js_regex(text):
    return re.sub(r"([.*+?^${}()|\[\]\\/])", r"\\\1", text)


def unit_command(runner, unit):
    """The command that runs one test (node:test) or one file alone."""
    path, _, name = unit.partition(SPLIT)
    if runner == "node-test":
        # The leaf's name only: a matching `describe` runs all its tests, so naming the suites would
        # run the whole suite; a subtest of a `test()` whose own name does not match is skipped with
        # its parent (Node's rule) and adds nothing to the spectrum.
        leaf = unit.split(SPLIT)[-1]
        return ["node", "--test", "--test-reporter=tap", "--test-name-pattern=^%s$" % js_regex(leaf), path]
    if runner == "mocha":
        return ["node_modules/.bin/mocha", "--reporter", "dot", "--no-color", path]
    return ["node", path]


def executed_lines(cov_dir, sources):
    """{code file: (executed lines, import-time lines)} from every V8 coverage file in `cov_dir`."""
    out = {}
    for name in glob.glob(os.path.join(cov_dir, "*.json")):
        try:
            with open(name, encoding="utf-8") as handle:
                scripts = json.load(handle).get("result", [])
        except (OSError, ValueError):
            continue
        for script in scripts:
            url = script.get("url", "")
            path = url[len("file://"):] if url.startswith("file://") else url
            rel = code_path(path) if path.startswith("/") else None
            if not rel:
                continue
            if rel not in sources:
                try:
                    with open(rel, encoding="utf-8", errors="replace") as handle:
                        sources[rel] = line_starts(handle.read())
                except OSError:
                    sources[rel] = None
            if sources[rel] is None:
                continue
            ran, imported = paint(sources[rel], script.get("functions", []))
            seen = out.setdefault(rel, (set(), set()))
            seen[0].update(ran)
            seen[1].update(imported)
    for rel, (ran, imported) in out.items():
        imported.difference_update(ran)
    return out


def line_starts(text):
    """(offset of each code line's first character, its 1-based number), comments and blanks left out."""
    rows, offset = [], 0
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if stripped and not stripped.startswith(("//", "/*", "*")):
            rows.append((offset + len(line) - len(stripped), number))
        offset += len(line) + 1
    return rows


def paint(rows, functions):
    """Lines whose innermost V8 range ran: larger ranges are painted first, inner ones over them."""
    offsets = [offset for offset, _ in rows]
    ranges = []
    for function in functions:
        for index, item in enumerate(function.get("ranges", [])):
            top = index == 0 and item["startOffset"] == 0 and not function.get("functionName")
            ranges.append((item["endOffset"] - item["startOffset"], item["startOffset"], item["endOffset"], item["count"], top))
    state = [None] * len(rows)
    for _, start, end, count, top in sorted(ranges, key=lambda r: -r[0]):
        for i in range(bisect.bisect_left(offsets, start), bisect.bisect_left(offsets, end)):
            state[i] = ("import" if top else "ran") if count > 0 else None
    ran = {rows[i][1] for i, s in enumerate(state) if s == "ran"}
    imported = {rows[i][1] for i, s in enumerate(state) if s == "import"}
    return ran, imported


def coverage_units(runner, statuses, cap):
    """Units to run alone, failing ones first, then passing ones of the same files: [(unit, status)]."""
    if runner in PER_TEST_RUNNERS:
        tests = {k: v for k, v in statuses.items() if SPLIT in k}
    else:
        tests = {}
        for k, v in statuses.items():
            path = k.split(SPLIT)[0]
            if tests.get(path) != "failed":
                tests[path] = v
    failing = sorted(k for k, v in tests.items() if v == "failed")
    files = {k.split(SPLIT)[0] for k in failing}
    passing = sorted(k for k, v in tests.items() if v == "passed" and k.split(SPLIT)[0] in files)
    chosen = failing[: max(1, cap // 2)]
    return [(u, "failed") for u in chosen] + [(u, "passed") for u in passing[: cap - len(chosen)]]


IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}/[^'"]+)['"]""")
FUNCTION = re.compile(r"(?:\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*[<(]|^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:function\b|(?:<[^>]*>\s*)?\(|[A-Za-z_$][\w$]*\s*=>)|^\s*(?:(?:public|private|protected|static|async|get|set|override|readonly)\s+)*\*?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^;]*$)", re.M)
KEYWORDS = {"if", "for", "while", "switch", "catch", "return", "function", "constructor", "super", "with"}


def imported_code(test_file):
    """Code files a test file imports by relative path (`./x.js` may name `x.ts`)."""
    try:
        with open(test_file, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return []
    found = []
    for spec in IMPORT.findall(text):
        base = os.path.normpath(os.path.join(os.path.dirname(test_file), spec))
        stem = re.sub(r"\.[cm]?jsx?$", "", base)
        for candidate in [base] + [stem + ext for ext in CODE_EXT] + [os.path.join(base, "index" + ext) for ext in CODE_EXT]:
            if os.path.isfile(candidate) and code_path(candidate) and code_path(candidate) not in found:
                found.append(code_path(candidate))
                break
    return found


def function_spans(text):
    """{name: [(first line, last line)]} of the functions and methods of a module, by brace matching."""
    spans, lines = {}, text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for match in FUNCTION.finditer(text):
        name = next(group for group in match.groups() if group)
        if name in KEYWORDS:
            continue
        brace = text.find("{", match.end())
        if brace < 0:
            continue
        depth, end = 0, brace
        for end in range(brace, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        first = bisect.bisect_right(starts, match.start())
        spans.setdefault(name, []).append((first, bisect.bisect_right(starts, end)))
    return spans


def static_units(statuses, cap):
    """[(unit, status, {file: (lines, set())})]: each test runs the functions its id names, else every line."""
    tests = {k: v for k, v in statuses.items() if SPLIT in k}
    failing = sorted(k for k, v in tests.items() if v == "failed")
    files = {k.split(SPLIT)[0] for k in failing}
    passing = sorted(k for k, v in tests.items() if v == "passed" and k.split(SPLIT)[0] in files)
    chosen = [(u, "failed") for u in failing[:cap]] + [(u, "passed") for u in passing[:cap]]
    modules = {}
    out = []
    for unit, status in chosen:
        words = set(re.findall(r"[A-Za-z_$][\w$]*", unit.split(SPLIT, 1)[1]))
        executed = {}
        for rel in imported_code(unit.split(SPLIT)[0]):
            if rel not in modules:
                with open(rel, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
                modules[rel] = (set(line for _, line in line_starts(text)), function_spans(text))
            code, spans = modules[rel]
            named = [span for name, found in spans.items() if name in words for span in found]
            lines = {line for first, last in named for line in range(first, last + 1)} & code if named else set(code)
            executed[rel] = (lines, set())
        out.append((unit, status, executed))
    return out


def print_spectrum(hits, limit):
    tally, import_time = {}, {}
    for unit, status, files in hits:
        for rel, (ran, imported) in files.items():
            for line in ran:
                tally.setdefault((rel, line), {"failed": 0, "passed": 0})[status] += 1
            import_time.setdefault(rel, set()).update(imported)
    failed = sum(1 for _, s, _ in hits if s == "failed")
    passed = len(hits) - failed
    unmatched = sum(1 for _, s, files in hits if s == "failed" and not any(r for r, _ in files.values()))
    rows = [(rel, line, t["failed"], t["passed"]) for (rel, line), t in tally.items() if t["failed"]]
    rows.sort(key=lambda r: (-r[2] / math.sqrt(r[2] + r[3]), r[0], r[1]))
    print("#spectrum failed=%d passed=%d unmatched=%d lines=%d" % (failed, passed, unmatched, len(rows)))
    for rel, line, ef, ep in rows[:limit]:
        print("%s\t%d\t%d\t%d" % (rel, line, ef, ep))
    shown = 0
    for rel in sorted(set(r[0] for r in rows[:limit])):
        for line in sorted(import_time.get(rel, set()))[: max(0, limit - shown)]:
            print("#import %s\t%d" % (rel, line))
            shown += 1
    return len(rows)


def vitest_hits(args, statuses):
    """[(test id, status, {file: (lines, import-time lines)})] from one run of the failing tests' files under the coverage hook."""
    # One run covers every test of the failing tests' files, so all of them join the spectrum.
    units = dict(coverage_units("node-test", statuses, 2 * len(statuses)))
    files = sorted({unit.split(SPLIT)[0] for unit in units})
    cov = args.cov_dir
    shutil.rmtree(cov, ignore_errors=True)
    try:
        subprocess.run(["node", args.vitest_coverage, cov] + files, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=max(1, args.cov_seconds))
    except (OSError, subprocess.SubprocessError):
        pass
    ran, imported = {}, {}
    for name in glob.glob(os.path.join(cov, "*.jsonl")):
        with open(name, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if "import" in record:
                    for rel, lines in record["import"].items():
                        imported.setdefault(rel, set()).update(lines)
                elif record.get("id") in units:
                    ran[record["id"]] = {rel: set(lines) for rel, lines in record.get("lines", {}).items()}
    hits = []
    for unit, status in units.items():
        files_ran = {rel: (lines, set()) for rel, lines in ran.get(unit, {}).items() if code_path(rel)}
        hits.append((unit, status, files_ran))
    every = set((rel, line) for _, _, files_ran in hits for rel, (lines, _) in files_ran.items() for line in lines)
    if hits:
        # Import-time lines no test ran: attach them to the first unit, as the V8 reruns do.
        for rel, lines in imported.items():
            if code_path(rel):
                extra = {line for line in lines if (rel, line) not in every}
                hits[0][2].setdefault(rel, (set(), set()))[1].update(extra)
    return hits


def spectrum(args, statuses):
    if args.runner == "vitest" and args.vitest_coverage:
        hits = vitest_hits(args, statuses)
        if any(lines for _, _, files in hits for lines, _ in files.values()):
            print_spectrum(hits, args.limit)
            return
        print("#spectrum-static no-coverage-of-code")
        print_spectrum(static_units(statuses, args.cov_tests), args.limit)
        return
    if args.runner not in PER_TEST_RUNNERS | PER_FILE_RUNNERS:
        print("#spectrum-static %s-transforms-code" % args.runner)
        print_spectrum(static_units(statuses, args.cov_tests), args.limit)
        return
    units = coverage_units(args.runner, statuses, args.cov_tests)
    deadline = time.time() + args.cov_seconds
    sources, hits = {}, []
    for index, (unit, status) in enumerate(units):
        left = deadline - time.time()
        if left < 1:
            break
        cov = os.path.join(args.cov_dir, str(index))
        shutil.rmtree(cov, ignore_errors=True)
        env = dict(os.environ, NODE_V8_COVERAGE=cov)
        try:
            subprocess.run(unit_command(args.runner, unit), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=min(left, 60))
        except (OSError, subprocess.SubprocessError):
            continue
        hits.append((unit, status, executed_lines(cov, sources)))
    if not any(lines for _, _, files in hits for lines, _ in files.values()):
        # Coverage saw no code file (code loaded through a transform, e.g. TypeScript via a loader).
        print("#spectrum-static no-coverage-of-code")
        hits = static_units(statuses, args.cov_tests)
    print_spectrum(hits, args.limit)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--parser", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--exit", default="none")
    parser.add_argument("--seconds", default="0")
    parser.add_argument("--cov-dir")
    parser.add_argument("--cov-tests", type=int, default=0)
    parser.add_argument("--cov-seconds", type=float, default=60)
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--max-failed", type=int, default=150)
    parser.add_argument("--promising-below", type=int)
    parser.add_argument("--vitest-coverage", help="vitest_coverage.mjs: runs Vitest with per-test coverage through a setup-file hook")
    args = parser.parse_args()
    try:
        with open(args.log, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        text = ""
    statuses = parse_statuses(args.parser, args.log)
    failed = sorted(k for k, s in statuses.items() if s == "failed")
    passed = sum(1 for s in statuses.values() if s == "passed")
    # A run counts as finished when the runner reported tests and was not killed by the time limit.
    summary = "yes" if statuses and args.exit != "124" else "no"
    print("#run exit=%s seconds=%s summary=%s passed=%d failed=%d" % (args.exit, args.seconds, summary, passed, len(failed)))
    for test_id in failed[: args.max_failed]:
        print("#failed " + test_id)
    if args.promising_below is not None:
        promising = len(failed) < args.promising_below if summary == "yes" else args.exit != "124"
        print("#promising %s" % ("yes" if promising else "no"))
    hits, deepest = {}, {}
    for block in frame_blocks(text, crashed=not statuses):
        for frame in set(block):
            hits[frame] = hits.get(frame, 0) + 1
        if block:
            deepest[block[0]] = deepest.get(block[0], 0) + 1
    for (path, line), count in sorted(hits.items()):
        print("#frame %s\t%d\t%d\t%d" % (path, line, count, deepest.get((path, line), 0)))
    if args.cov_dir and args.cov_tests > 0 and failed:
        spectrum(args, statuses)


main()
