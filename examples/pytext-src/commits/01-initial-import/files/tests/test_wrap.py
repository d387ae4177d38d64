import pytest

from pytext.wrap import center, dedent, fill, fill_justified, fill_paragraphs, indent, justify, shorten, wrap

FOX = "The quick brown fox jumps over the lazy dog"


def test_wrap_breaks_between_words():
    assert wrap(FOX, width=13) == ["The quick", "brown fox", "jumps over", "the lazy dog"]


def test_wrap_collapses_whitespace():
    assert wrap("  one \n two\t\tthree  ", width=30) == ["one two three"]


def test_wrap_of_nothing_is_no_lines():
    assert wrap("", width=10) == []
    assert wrap("   \n ", width=10) == []


def test_wrap_with_indents():
    assert wrap(FOX, width=18, indent="* ", subsequent_indent="  ") == [
        "* The quick brown",
        "  fox jumps over",
        "  the lazy dog",
    ]


def test_wrap_splits_long_words():
    assert wrap("a supercalifragilistic word", width=8) == ["a", "supercal", "ifragili", "stic", "word"]


def test_wrap_keeps_long_words_whole_when_asked():
    assert wrap("a supercalifragilistic word", width=8, break_long_words=False) == [
        "a",
        "supercalifragilistic",
        "word",
    ]


@pytest.mark.parametrize("width, indent_text", [(0, ""), (4, "    "), (4, "     ")])
def test_wrap_needs_room(width, indent_text):
    with pytest.raises(ValueError):
        wrap("text", width=width, indent=indent_text)


def test_fill_joins_lines():
    assert fill(FOX, width=20) == "The quick brown fox\njumps over the lazy\ndog"


def test_fill_paragraphs_keeps_paragraphs_apart():
    text = "first paragraph\nstill first\n\n\nsecond one here\n"
    assert fill_paragraphs(text, width=12) == "first\nparagraph\nstill first\n\nsecond one\nhere"


@pytest.mark.parametrize(
    "line, width, expected",
    [
        ("a b c", 9, "a   b   c"),
        ("a b c", 8, "a   b  c"),
        ("ab cd", 5, "ab cd"),
        ("word", 6, "word  "),
        ("", 3, "   "),
    ],
)
def test_justify(line, width, expected):
    assert justify(line, width) == expected


def test_justify_refuses_long_lines():
    with pytest.raises(ValueError):
        justify("abc def", 6)
    with pytest.raises(ValueError):
        justify("abcdefg", 6)


def test_fill_justified_leaves_the_last_line_ragged():
    assert fill_justified(FOX, width=20) == "The  quick brown fox\njumps  over the lazy\ndog"


@pytest.mark.parametrize(
    "text, width, expected",
    [
        ("ab", 6, "  ab  "),
        ("ab", 5, " ab  "),
        ("abc", 2, "abc"),
    ],
)
def test_center(text, width, expected):
    assert center(text, width) == expected


def test_center_fillchar():
    assert center("x", 5, "*") == "**x**"
    with pytest.raises(ValueError):
        center("x", 5, "**")


@pytest.mark.parametrize(
    "width, expected",
    [
        (100, FOX),
        (43, FOX),
        (42, "The quick brown fox jumps over the lazy..."),
        (12, "The quick..."),
        (6, "The..."),
        (5, "Th..."),
    ],
)
def test_shorten(width, expected):
    assert shorten(FOX, width) == expected


def test_shorten_placeholder():
    assert shorten(FOX, 15, placeholder=" [...]") == "The quick [...]"
    with pytest.raises(ValueError):
        shorten(FOX, 2)


def test_indent_skips_blank_lines_by_default():
    assert indent("a\n\n  b\n", "> ") == "> a\n\n>   b\n"
    assert indent("a\n\nb", "# ", predicate=lambda line: True) == "# a\n# \n# b"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("    a\n      b\n    c\n", "a\n  b\nc\n"),
        ("  a\n\n  b", "a\n\nb"),
        ("  a\n   \n  b\n", "a\n\nb\n"),
        ("\ta\n\t\tb\n", "a\n\tb\n"),
        ("  a\n\tb\n", "  a\n\tb\n"),
        ("no margin\n  here\n", "no margin\n  here\n"),
    ],
)
def test_dedent(text, expected):
    assert dedent(text) == expected
