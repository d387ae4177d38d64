# The JSON report block the Jest/Vitest and Mocha parsers read (jest_json_parser.py,
# mocha_json_parser.py): ssr inlines this file into each of them where they import it (the line
# ending `# ssr-inline`, see js-test-files.ts), so the test_parser.py an artifact holds stays one
# self-contained file; run from this folder, the parsers import it instead. Stdlib only.
import hashlib
import json
import re

BEGIN = "ssr-json-report-begin"
END = "ssr-json-report-end"
SUPERVISED_BEGIN = "ssr-json-report-supervised-begin"
SUPERVISED_END = "ssr-json-report-supervised-end"
COMMIT = re.compile(r"^ssr-json-report-commit: ([0-9a-f]{64})$")
REVEAL = re.compile(r"^ssr-json-report-nonce: ([0-9a-f]{16,})$")


def supervised_text(log):
    """The report the test driver itself appended (`ssr-json-report-supervised-begin <exit>` ...
    `ssr-json-report-supervised-end`, see report-fifo.ts), or None when there is none, or "" when
    the one that counts does not: the last block is the driver's (it appends one after any such
    line in the log), and only a runner that exited 0 or 1 wrote a report of its own."""
    lines = log.splitlines()
    begins = [index for index, line in enumerate(lines) if line.strip().startswith(SUPERVISED_BEGIN + " ") or line.strip() == SUPERVISED_BEGIN]
    if not begins:
        return None
    fields = lines[begins[-1]].split()
    body = lines[begins[-1] + 1:]
    ends = [index for index, line in enumerate(body) if line.strip() == SUPERVISED_END]
    if len(fields) != 2 or fields[1] not in ("0", "1") or not ends:
        return ""
    text = "\n".join(body[: ends[-1]])
    try:
        json.loads(text)
    except ValueError:  # more than one report went into the FIFO: none of them is the runner's alone
        return ""
    return text


def report_text(log):
    """The text of the report block that counts, or None.

    A block the test driver appended (supervised_text) is the only one that counts when there is
    one: the report never passed through a file the test user could rewrite.

    With a commitment (`ssr-json-report-commit: <sha256>`, printed by the script before the runner
    starts): there must be exactly one, and the block that counts is the first complete one whose
    end line is followed by `ssr-json-report-nonce: <nonce>` with that SHA-256. Code under test
    does not know the nonce before the script reveals it after the report, so a block it writes
    into the log (and then kills the script, so the real one never prints) counts nothing, and one
    it appends after the reveal comes after the real block. Without a commitment (older scripts):
    the last complete block."""
    supervised = supervised_text(log)
    if supervised is not None:
        return supervised or None
    lines = log.splitlines()
    commits = {m.group(1) for m in (COMMIT.match(line.strip()) for line in lines) if m}
    if commits:
        if len(commits) > 1:
            return None
        commit = commits.pop()
        start = None
        for index, line in enumerate(lines):
            text = line.strip()
            if text == BEGIN:
                start = index
            elif text == END and start is not None:
                reveal = REVEAL.match(lines[index + 1].strip()) if index + 1 < len(lines) else None
                if reveal and hashlib.sha256(reveal.group(1).encode()).hexdigest() == commit:
                    return "\n".join(lines[start + 1:index])
                start = None
        return None
    starts = [index for index, line in enumerate(lines) if line.strip() == BEGIN]
    if not starts:
        return None
    body = lines[starts[-1] + 1:]
    ends = [index for index, line in enumerate(body) if line.strip() == END]
    return "\n".join(body[: ends[0]]) if ends else None
