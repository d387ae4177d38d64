"""Why each failing test of a JS/TS run failed, for summarize_run.py (`--kind js`).

    details(lines, statuses) -> (excs, where)

`lines` is the test script's log, `statuses` the runner parser's map (ids `file > titles`).
`excs` maps a failing id to its error class ("AssertionError", "TypeError", "ReferenceError";
"collection" for a whole test file that failed to load, which the parsers report under the
file's own path); `where` maps it to the line of its test file where it failed, read from the
stack. The log is one of ssr's JS test scripts' (src/harness/defaults/js/): a JSON report
between `ssr-json-report-begin` / `ssr-json-report-end` lines (Jest and Vitest:
`testResults`; Mocha: `failures`), else TAP after `ssr-test-file: <path>` lines (node:test,
tape, node-tap). Stdlib only.
"""
import json
import os
import re

BEGIN = "ssr-json-report-begin"
END = "ssr-json-report-end"
REPO = "/repo"
FILE = re.compile(r"^ssr-test-file: (.+)$")
NONCE = re.compile(r"^ssr-tap-nonce: ([0-9a-f]{16,})$")
POINT = re.compile(r"^(not ok|ok)\b\s*(?:\d+)?\s*(?:- )?(.*)$")
SUBTEST = re.compile(r"^# Subtest: (.*)$")
# As tap_parser.py reads a point's name: no directive, no node-tap time, `\#` unescaped.
DIRECTIVE = re.compile(r"(?<!\\)#\s*(SKIP|TODO)\b.*$", re.IGNORECASE)
TIME = re.compile(r"\s*(?<!\\)# time=\S+\s*$")
# "TypeError: x is not a function", "AssertionError [ERR_ASSERTION]: ...", "Error: expect(received)..."
ERROR_HEAD = re.compile(r"^\s*(?:Uncaught\s+)?([A-Za-z_$][\w$]*)(?:\s*\[[^\]]*\])?:")
YAML_NAME = re.compile(r"^\s*name:\s*'?([A-Za-z_$][\w$]*)'?\s*$")
YAML_CODE = re.compile(r"^\s*code:\s*'?(ERR_[A-Z_]+)'?\s*$")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def unescape(text):
    return text.replace("\\#", "#").replace("\\\\", "\\").strip()


def point_name(description):
    return unescape(DIRECTIVE.sub("", TIME.sub("", description)))


def error_class(text):
    """The error class a failure message starts with; matcher errors (`expect(...)`) are assertions."""
    for line in text.splitlines():
        if not line.strip():
            continue
        match = ERROR_HEAD.match(line)
        if not match:
            return "Error"
        name = match.group(1)
        if name == "Error" and "expect(" in line:
            return "AssertionError"
        return name
    return "Error"


def line_in(text, path):
    """The first line number of `path` that a stack in `text` names (absolute, file:// or, as Mocha and node-tap print it, relative)."""
    pattern = re.compile(r"(?:^|[\s(])(?:file://)?(?:" + re.escape(REPO) + r"/)?" + re.escape(path) + r":(\d+)(?::\d+)?")
    for line in text.splitlines():
        if line.strip().startswith("location:"):
            continue  # node:test's declaration site of the test, not where it failed
        match = pattern.search(line)
        if match:
            return match.group(1)
    return None


def relative(path):
    if os.path.isabs(path) and path.startswith(REPO + "/"):
        return os.path.relpath(path, REPO)
    return path


def report(lines):
    starts = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    if not starts:
        return None
    body = lines[starts[-1] + 1:]
    ends = [i for i, line in enumerate(body) if line.strip() == END]
    if not ends:
        return None
    try:
        return json.loads("\n".join(body[: ends[0]]))
    except ValueError:
        return None


def json_failures(data):
    """(id, file, message) of each failure in a Jest/Vitest or Mocha JSON report."""
    out = []
    for suite in data.get("testResults") or []:
        path = relative(str(suite.get("name", "")))
        for result in suite.get("assertionResults") or []:
            if result.get("status") != "failed":
                continue
            titles = [str(t) for t in result.get("ancestorTitles") or []] + [str(result.get("title", ""))]
            out.append((" > ".join([path] + titles), path, "\n".join(str(m) for m in result.get("failureMessages") or [])))
    for test in data.get("failures") or []:
        path = relative(str(test.get("file") or ""))
        title = str(test.get("fullTitle") or test.get("title") or "")
        err = test.get("err") or {}
        message = str(err.get("stack") or err.get("message") or "")
        out.append((f"{path} > {title}" if path else title, path, message))
    return out


def nonce_lines(lines):
    """The TAP lines tap_parser.py reads: with a declared `ssr-tap-nonce` (node-test.sh), only the
    lines carrying it, the prefix removed; two different nonces leave none; no nonce, all."""
    declared = {m.group(1) for m in (NONCE.match(line.rstrip()) for line in lines) if m}
    if not declared:
        return lines
    if len(declared) > 1:
        return []
    tag = declared.pop() + " "
    return [line[len(tag):] for line in lines if line.startswith(tag)]


def tap_points(lines):
    """(file, name, block, diagnostics text) of every `not ok` point of a TAP log."""
    lines = nonce_lines(lines)
    points = []
    path = ""
    headers = {}
    comment = None
    current = None
    yaml_indent = None
    for raw in lines:
        line = ANSI.sub("", raw).rstrip()
        match = FILE.match(line)
        if match:
            path, headers, comment, current, yaml_indent = match.group(1).strip(), {}, None, None, None
            continue
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if yaml_indent is not None:
            # Inside a point's YAML block nothing is TAP (an error message may quote "ok 1").
            if stripped == "..." and indent == yaml_indent:
                yaml_indent = None
            elif current is not None:
                current[3].append(line)
            continue
        if stripped == "---" and current is not None:
            yaml_indent = indent
            continue
        depth = indent // 4
        header = SUBTEST.match(stripped)
        point = POINT.match(stripped)
        if header:
            headers = {d: n for d, n in headers.items() if d < depth}
            headers[depth] = unescape(header.group(1))
            current = None
        elif point:
            current = None
            if point.group(1) == "not ok":
                block = headers.get(depth - 1) or (comment if depth == 0 else None)
                current = [path, point_name(point.group(2)), block, []]
                points.append(current)
        elif stripped.startswith("#") and depth == 0 and not headers:
            comment = stripped[1:].strip()
    return [(p, n, b, "\n".join(text)) for p, n, b, text in points]


def tap_class(text):
    for line in text.splitlines():
        match = YAML_NAME.match(line)
        if match:
            return match.group(1)
    for line in text.splitlines():
        match = YAML_CODE.match(line)
        if match and match.group(1) == "ERR_ASSERTION":
            return "AssertionError"
    if re.search(r"^\s*(operator|compare):", text, re.MULTILINE):
        return "AssertionError"  # tape's and node-tap's failed assertions name their operator or comparison
    for line in text.splitlines():
        found = re.search(r"\b([A-Z][A-Za-z]*Error)\b", line)
        if found:
            return found.group(1)
    return "Error"


def details(lines, statuses):
    excs = {}
    where = {}
    failing = [test for test, status in sorted(statuses.items()) if status != "passed"]
    for test in failing:
        if " > " not in test:
            excs[test] = "collection"  # the file itself: it did not load
    data = report(lines)
    if data is not None:
        for test, path, message in json_failures(data):
            if test in statuses and test not in excs:
                excs[test] = error_class(message)
                where[test] = line_in(message, path) or "-"
        return excs, where
    points = tap_points(lines)
    used = set()
    for test in failing:
        if test in excs:
            continue
        path, _, rest = test.partition(" > ")
        last = rest.split(" > ")[-1]
        matches = [i for i, (file, name, block, _) in enumerate(points) if file == path and i not in used and last in (name, block)]
        if not matches:
            continue
        # A point with diagnostics says why; a closing point (or a line a test printed) says nothing.
        chosen = next((i for i in matches if points[i][3].strip()), matches[0])
        used.add(chosen)
        text = points[chosen][3]
        excs[test] = tap_class(text)
        where[test] = line_in(text, path) or "-"
    return excs, where
