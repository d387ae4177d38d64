#!/usr/bin/env python3
"""TAP parser for `node:test` (`--test-reporter=tap`), tape and node-tap: the test script's log
on stdin -> {"test id": "passed" | "failed"} on stdout.

The test script runs one test file at a time and prints `ssr-test-file: <path>` (at column 0)
before each, since TAP itself does not name files. Ids are that path, then the names of the
blocks, joined by " > ".

- A test point closing a `# Subtest: <name>` header of its own depth is a test (node:test's
  tests and suites, node-tap's `t.test` blocks). Without child test points it is a leaf and
  reports its own status under `file > outer names > name`; with children it is a suite and
  its children report.
- Any other test point is an assertion: it belongs to its enclosing block, the `# Subtest`
  names above it, or for tape's flat output the last `# <name>` comment, else the file itself.
  A block's status is failed if one of its assertions failed, passed if one passed.
Mapping (method §2): `ok` -> passed, `not ok` -> failed; points with a `# SKIP` or
`# TODO` directive are omitted. YAML diagnostics blocks (`---` ... `...`) are skipped, so
error text quoting TAP cannot plant results, and so is node:test's test output (it prefixes
it with "# "). Tape and node-tap do not wrap what a test prints: a test that prints TAP lines
itself can plant results there; no parser can tell those apart.

Nonce: when the log declares `ssr-tap-nonce: <hex>` (node-test.sh prints it as its last line),
only lines that start with that nonce and a space count (the prefix is removed): TAP lines that
code under test writes into the log without knowing the nonce are ignored. Two different
declarations mean something else wrote one: nothing counts (every test missing). A log without
a declaration is read whole, as above. Commitment: when the log holds `ssr-tap-commit: <sha256>`
lines (the scripts print one first, before any test code runs), there must be exactly one, and
exactly one declared nonce whose SHA-256 it is; otherwise nothing counts, so a script killed
before its declaration, with a nonce of the test code's own declared instead, earns nothing.

Tampering: a counted line `ssr-tampered: <what>` (tap-files.sh's preload writes one when it finds
tape's machinery tampered with in the test file's process) becomes the failed id
`ssr-tampered: <file>: <what>`, which grading reads as tampering. Stdlib only.
"""
import hashlib
import json
import re
import sys

FILE = re.compile(r"^ssr-test-file: (.+)$")
NONCE = re.compile(r"^ssr-tap-nonce: ([0-9a-f]{16,})$")
COMMIT = re.compile(r"^ssr-tap-commit: ([0-9a-f]{64})$")
TAMPERED = re.compile(r"^ssr-tampered: (.+)$")
POINT = re.compile(r"^(not ok|ok)\b\s*(?:\d+)?\s*(?:- )?(.*)$")
SUBTEST = re.compile(r"^# Subtest: (.*)$")
DIRECTIVE = re.compile(r"(?<!\\)#\s*(SKIP|TODO)\b.*$", re.IGNORECASE)
# node-tap appends "# time=1.2ms" to a subtest's closing point.
TIME = re.compile(r"\s*(?<!\\)# time=\S+\s*$")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
INDENT = 4


def unescape(text):
    return text.replace("\\#", "#").replace("\\\\", "\\").strip()


class FileState:
    def __init__(self, path):
        self.path = path
        self.headers = []  # "# Subtest" names by depth
        self.children = []  # whether the subtest at each depth has seen a child test point
        self.comment = None  # tape's current "# name" block (depth 0)


def is_file(name, path):
    """node:test under `--test` names a file that failed to load (and older Node every file) by its path."""
    return name == path or name.endswith("/" + path.lstrip("./"))


def put(statuses, state, names, status):
    """Record `status` under the file plus `names`, failed winning; a wrapper named after the file is dropped."""
    if names and is_file(names[0], state.path):
        names = names[1:]
    name = " > ".join([state.path] + names)
    if statuses.get(name) != "failed":
        statuses[name] = status


def point(state, statuses, depth, ok, description):
    directive = DIRECTIVE.search(TIME.sub("", description))
    name = unescape(DIRECTIVE.sub("", TIME.sub("", description)))
    if depth > 0 and depth - 1 < len(state.children):
        state.children[depth - 1] = True
    closes = depth < len(state.headers) and state.headers[depth] == name
    status = None if directive else ("passed" if ok else "failed")
    if closes:
        leaf = not state.children[depth]
        del state.headers[depth:], state.children[depth:]
        if leaf and status:
            put(statuses, state, state.headers + [name], status)
        return
    if status is None:
        return
    block = state.headers[:depth] or ([state.comment] if depth == 0 and state.comment else [])
    put(statuses, state, block, status)


def nonce_lines(log):
    """The lines that count: those carrying the log's declared nonce (prefix removed), else all."""
    lines = log.splitlines()
    declared = {match.group(1) for match in map(NONCE.match, (line.rstrip() for line in lines)) if match}
    commits = {match.group(1) for match in map(COMMIT.match, (line.rstrip() for line in lines)) if match}
    if not declared and not commits:
        return lines
    if len(declared) != 1 or len(commits) > 1:
        return []
    nonce = declared.pop()
    if commits and hashlib.sha256(nonce.encode()).hexdigest() != commits.pop():
        return []
    tag = nonce + " "
    return [line[len(tag):] for line in lines if line.startswith(tag)]


def parse(log):
    statuses = {}
    state = FileState("")
    yaml_indent = None
    last_point_indent = None
    for raw in nonce_lines(log):
        line = ANSI.sub("", raw).rstrip()
        match = FILE.match(line)
        if match:
            state, yaml_indent, last_point_indent = FileState(match.group(1).strip()), None, None
            continue
        finding = TAMPERED.match(line)
        if finding:
            statuses["ssr-tampered: " + (state.path + ": " if state.path else "") + finding.group(1).strip()[:200]] = "failed"
            continue
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if yaml_indent is not None:
            if stripped == "..." and indent == yaml_indent:
                yaml_indent = None
            continue
        if stripped == "---" and last_point_indent is not None and indent > last_point_indent:
            yaml_indent = indent
            continue
        depth = indent // INDENT
        header = SUBTEST.match(stripped)
        if header:
            del state.headers[depth:], state.children[depth:]
            while len(state.headers) < depth:  # a header whose parent's header we never saw
                state.headers.append("")
                state.children.append(True)
            state.headers.append(unescape(header.group(1)))
            state.children.append(False)
            last_point_indent = None
            continue
        test = POINT.match(stripped)
        if test:
            point(state, statuses, depth, test.group(1) == "ok", test.group(2))
            last_point_indent = indent
            continue
        if stripped.startswith("#") and depth == 0 and not state.headers:
            # tape: "# name" opens a block; "# SKIP name" is a skipped one (no assertions follow).
            state.comment = stripped[1:].strip()
        if stripped:
            last_point_indent = None
    return statuses


def main():
    log = sys.stdin.buffer.read().decode("utf-8", "replace")
    json.dump(parse(log), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
