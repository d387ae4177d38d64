"""Line diffs: a longest common subsequence of lines, the edit operations it implies, a
plain listing of changes and unified diffs in the format `diff -u` prints.
"""

from collections import namedtuple

Opcode = namedtuple("Opcode", "tag a_start a_end b_start b_end")
Opcode.__doc__ = """One step of an edit script: `tag` is "equal", "delete", "insert" or
"replace"; a[a_start:a_end] becomes b[b_start:b_end]."""


def split_lines(text):
    """The lines of `text`, each with its "\\n"; the last line may have none."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def matching_pairs(a, b):
    """Index pairs (i, j) with a[i] == b[j] forming a longest common subsequence, in order.

    Where several exist, deletions are preferred to insertions at the first difference.
    """
    n, m = len(a), len(b)
    # suffix[i][j]: length of a longest common subsequence of a[i:] and b[j:].
    suffix = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if a[i] == b[j]:
                suffix[i][j] = suffix[i + 1][j + 1] + 1
            else:
                suffix[i][j] = max(suffix[i + 1][j], suffix[i][j + 1])
    pairs = []
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            pairs.append((i, j))
            i += 1
            j += 1
        elif suffix[i + 1][j] >= suffix[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def opcodes(a, b):
    """The edit operations turning `a` into `b`, covering both sequences in order."""
    ops = []
    i = j = 0
    for match_a, match_b in matching_pairs(a, b) + [(len(a), len(b))]:
        if i < match_a and j < match_b:
            ops.append(Opcode("replace", i, match_a, j, match_b))
        elif i < match_a:
            ops.append(Opcode("delete", i, match_a, j, j))
        elif j < match_b:
            ops.append(Opcode("insert", i, i, j, match_b))
        if match_a == len(a) and match_b == len(b):
            break
        if ops and ops[-1].tag == "equal":
            ops[-1] = ops[-1]._replace(a_end=match_a + 1, b_end=match_b + 1)
        else:
            ops.append(Opcode("equal", match_a, match_a + 1, match_b, match_b + 1))
        i, j = match_a + 1, match_b + 1
    return ops


def diff_lines(a, b):
    """Every line of `a` and `b` prefixed "  " (kept), "- " (deleted) or "+ " (inserted)."""
    out = []
    for op in opcodes(a, b):
        if op.tag == "equal":
            out.extend("  " + line for line in a[op.a_start : op.a_end])
            continue
        out.extend("- " + line for line in a[op.a_start : op.a_end])
        out.extend("+ " + line for line in b[op.b_start : op.b_end])
    return out


def diff_stats(a, b):
    """(inserted, deleted): how many lines `b` adds to and removes from `a`."""
    inserted = deleted = 0
    for op in opcodes(a, b):
        if op.tag != "equal":
            inserted += op.b_end - op.b_start
            deleted += op.a_end - op.a_start
    return inserted, deleted


def grouped_opcodes(a, b, context=3):
    """The opcodes cut into hunks: changes with at most `context` equal lines around them.

    Changes less than 2 * context + 1 equal lines apart share a hunk.
    """
    if context < 0:
        raise ValueError("context must not be negative")
    ops = opcodes(a, b)
    if all(op.tag == "equal" for op in ops):
        return []
    if ops[0].tag == "equal":
        tag, a_start, a_end, b_start, b_end = ops[0]
        keep = min(context, a_end - a_start)
        ops[0] = Opcode("equal", a_end - keep, a_end, b_end - keep, b_end)
    if ops[-1].tag == "equal":
        tag, a_start, a_end, b_start, b_end = ops[-1]
        keep = min(context, a_end - a_start)
        ops[-1] = Opcode("equal", a_start, a_start + keep, b_start, b_start + keep)
    hunks = []
    hunk = []
    for op in ops:
        if op.tag == "equal" and op.a_end - op.a_start > 2 * context:
            hunk.append(Opcode("equal", op.a_start, op.a_start + context, op.b_start, op.b_start + context))
            hunks.append(hunk)
            hunk = [Opcode("equal", op.a_end - context, op.a_end, op.b_end - context, op.b_end)]
            continue
        hunk.append(op)
    hunks.append(hunk)
    return hunks


def _hunk_range(start, count):
    """A range of a hunk header: 1-based first line and count; a single line is just its number."""
    if count == 1:
        return f"{start + 1}"
    return f"{start + 1},{count}"


def _diff_line(prefix, line):
    if line.endswith("\n"):
        return prefix + line
    return f"{prefix}{line}\n\\ No newline at end of file\n"


def unified_diff(a, b, from_file="a", to_file="b", context=3):
    """The unified diff turning lines `a` into lines `b` (lists of lines with their "\\n").

    Equal inputs give "" (no headers); a last line without "\\n" is marked as in `diff -u`.
    """
    hunks = grouped_opcodes(a, b, context)
    if not hunks:
        return ""
    out = [f"--- {from_file}\n", f"+++ {to_file}\n"]
    for hunk in hunks:
        first, last = hunk[0], hunk[-1]
        a_range = _hunk_range(first.a_start, last.a_end - first.a_start)
        b_range = _hunk_range(first.b_start, last.b_end - first.b_start)
        out.append(f"@@ -{a_range} +{b_range} @@\n")
        for op in hunk:
            if op.tag == "equal":
                out.extend(_diff_line(" ", line) for line in a[op.a_start : op.a_end])
                continue
            out.extend(_diff_line("-", line) for line in a[op.a_start : op.a_end])
            out.extend(_diff_line("+", line) for line in b[op.b_start : op.b_end])
    return "".join(out)


def diff_texts(a_text, b_text, from_file="a", to_file="b", context=3):
    """unified_diff() of two texts."""
    return unified_diff(split_lines(a_text), split_lines(b_text), from_file, to_file, context)
