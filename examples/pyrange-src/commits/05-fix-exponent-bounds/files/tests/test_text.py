import pytest

from pyrange import Interval, format_interval, parse_interval


@pytest.mark.parametrize("text, expected", [("[1, 5)", Interval(1, 5)), ("[0,10)", Interval(0, 10)), ("[1.5, 2.5)", Interval(1.5, 2.5))])
def test_parse(text, expected):
    assert parse_interval(text) == expected


@pytest.mark.parametrize("text", ["(1, 5)", "[1, 5]", "[1)", "1, 5"])
def test_parse_refuses_other_forms(text):
    with pytest.raises(ValueError):
        parse_interval(text)


def test_format():
    assert format_interval(Interval(1, 5)) == "[1, 5)"


def test_round_trip():
    interval = Interval(-3, 4)
    assert parse_interval(format_interval(interval)) == interval


def test_parse_negative_bounds():
    assert parse_interval("[-4, -1)") == Interval(-4, -1)


def test_parse_ignores_surrounding_spaces():
    assert parse_interval("  [2, 3)  ") == Interval(2, 3)


def test_parse_bounds_with_an_exponent():
    assert parse_interval("[1e3, 2.5e3)") == Interval(1000.0, 2500.0)
