import pytest

from pytext.linediff import (
    Opcode,
    diff_lines,
    diff_stats,
    diff_texts,
    grouped_opcodes,
    matching_pairs,
    opcodes,
    split_lines,
    unified_diff,
)


def numbered(count, changed=()):
    """Lines "1\\n".."count\\n", with the numbers in `changed` replaced by "X\\n"."""
    return [("X" if n in changed else str(n)) + "\n" for n in range(1, count + 1)]


@pytest.mark.parametrize(
    "text, lines",
    [
        ("", []),
        ("a", ["a"]),
        ("a\n", ["a\n"]),
        ("a\nb", ["a\n", "b"]),
        ("a\n\nb\n", ["a\n", "\n", "b\n"]),
        ("a\r\nb\n", ["a\r\n", "b\n"]),
    ],
)
def test_split_lines(text, lines):
    assert split_lines(text) == lines
    assert "".join(split_lines(text)) == text


def test_matching_pairs_is_a_longest_common_subsequence():
    assert matching_pairs("ABCBDAB", "BDCABA") == [(1, 0), (4, 1), (5, 3), (6, 4)]
    assert matching_pairs("abc", "xyz") == []
    assert matching_pairs("", "abc") == []


def test_opcodes_cover_both_sequences():
    assert opcodes("abcd", "axcyd") == [
        Opcode("equal", 0, 1, 0, 1),
        Opcode("replace", 1, 2, 1, 2),
        Opcode("equal", 2, 3, 2, 3),
        Opcode("insert", 3, 3, 3, 4),
        Opcode("equal", 3, 4, 4, 5),
    ]


@pytest.mark.parametrize(
    "a, b, tags",
    [
        ("", "", []),
        ("abc", "abc", ["equal"]),
        ("abc", "", ["delete"]),
        ("", "abc", ["insert"]),
        ("abc", "xyz", ["replace"]),
        ("abc", "ab", ["equal", "delete"]),
        ("abc", "zabc", ["insert", "equal"]),
    ],
)
def test_opcode_tags(a, b, tags):
    assert [op.tag for op in opcodes(a, b)] == tags


def test_opcodes_rebuild_b_from_a():
    a = list("the quick brown fox jumps")
    b = list("a quick brown cat jumped")
    rebuilt = []
    for op in opcodes(a, b):
        rebuilt.extend(a[op.a_start : op.a_end] if op.tag == "equal" else b[op.b_start : op.b_end])
    assert rebuilt == b


def test_diff_lines_and_stats():
    a = ["one\n", "two\n", "three\n"]
    b = ["one\n", "2\n", "three\n", "four\n"]
    assert diff_lines(a, b) == ["  one\n", "- two\n", "+ 2\n", "  three\n", "+ four\n"]
    assert diff_stats(a, b) == (2, 1)
    assert diff_stats(a, a) == (0, 0)


def test_unified_diff_of_one_change():
    assert unified_diff(numbered(10), numbered(10, {5}), "old.txt", "new.txt") == (
        "--- old.txt\n"
        "+++ new.txt\n"
        "@@ -2,7 +2,7 @@\n"
        " 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n"
    )


def test_unified_diff_at_the_edges_has_less_context():
    assert unified_diff(numbered(5), numbered(5, {1, 5})) == (
        "--- a\n+++ b\n@@ -1,5 +1,5 @@\n-1\n+X\n 2\n 3\n 4\n-5\n+X\n"
    )


@pytest.mark.parametrize(
    "changed, context, hunks",
    [
        ({2, 9}, 3, 1),
        ({2, 10}, 3, 2),
        ({2, 4}, 0, 2),
        ({2, 3}, 0, 1),
        ({2, 5}, 1, 1),
        ({2, 6}, 1, 2),
    ],
)
def test_changes_close_together_share_a_hunk(changed, context, hunks):
    assert len(grouped_opcodes(numbered(20), numbered(20, changed), context)) == hunks


def test_unified_diff_with_two_hunks():
    text = unified_diff(numbered(20), numbered(20, {3, 15}), context=2)
    assert text == (
        "--- a\n+++ b\n"
        "@@ -1,5 +1,5 @@\n 1\n 2\n-3\n+X\n 4\n 5\n"
        "@@ -13,5 +13,5 @@\n 13\n 14\n-15\n+X\n 16\n 17\n"
    )


def test_unified_diff_with_inserted_and_deleted_lines():
    a = ["a\n", "b\n", "c\n", "d\n"]
    b = ["a\n", "c\n", "d\n", "e\n", "f\n"]
    assert unified_diff(a, b) == "--- a\n+++ b\n@@ -1,4 +1,5 @@\n a\n-b\n c\n d\n+e\n+f\n"


def test_grouped_opcodes_refuses_negative_context():
    with pytest.raises(ValueError):
        grouped_opcodes(["a\n"], ["b\n"], context=-1)


def test_diff_texts():
    assert diff_texts("x\ny\n", "x\nz\n", "before", "after") == "--- before\n+++ after\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n"
