import pytest

from pytext.roman import RomanError, from_roman, is_roman, parse_number, roman_range, to_roman


@pytest.mark.parametrize(
    "number, numeral",
    [
        (1, "I"),
        (3, "III"),
        (4, "IV"),
        (9, "IX"),
        (14, "XIV"),
        (40, "XL"),
        (90, "XC"),
        (400, "CD"),
        (444, "CDXLIV"),
        (1994, "MCMXCIV"),
        (2024, "MMXXIV"),
        (3999, "MMMCMXCIX"),
    ],
)
def test_both_ways(number, numeral):
    assert to_roman(number) == numeral
    assert from_roman(numeral) == number


def test_every_number_round_trips():
    for number in range(1, 4000):
        assert from_roman(to_roman(number)) == number


def test_lowercase():
    assert to_roman(14, lowercase=True) == "xiv"
    assert from_roman("  mcmxciv ") == 1994


@pytest.mark.parametrize("number", [0, -1, 4000])
def test_out_of_range(number):
    with pytest.raises(RomanError, match="outside"):
        to_roman(number)


@pytest.mark.parametrize("value", [1.0, "4", True, None])
def test_to_roman_needs_an_int(value):
    with pytest.raises(TypeError):
        to_roman(value)


@pytest.mark.parametrize("text", ["", "   ", "ABC", "X1V", "MCMXCIV!"])
def test_invalid_text(text):
    with pytest.raises(RomanError):
        from_roman(text)


def test_from_roman_needs_a_str():
    with pytest.raises(TypeError):
        from_roman(14)


def test_is_roman():
    assert is_roman("XLII")
    assert not is_roman("XLIIZ")
    assert not is_roman(42)


def test_parse_number():
    assert parse_number(" 42 ") == 42
    assert parse_number("XLII") == 42


def test_roman_range():
    assert roman_range(1, 6) == ["I", "II", "III", "IV", "V"]
    assert roman_range(10, 0, -3) == ["X", "VII", "IV", "I"]
    with pytest.raises(ValueError):
        roman_range(1, 5, 0)
    with pytest.raises(RomanError):
        roman_range(0, 3)
