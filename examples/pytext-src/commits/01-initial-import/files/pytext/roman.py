"""Roman numerals from 1 to 3999: conversion both ways, validation and ranges."""

MIN_VALUE = 1
MAX_VALUE = 3999

_NUMERALS = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)
_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


class RomanError(ValueError):
    """A number that has no Roman numeral, or text that is not one."""


def to_roman(number, lowercase=False):
    """The Roman numeral of `number` (1..3999): to_roman(1994) == "MCMXCIV"."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"to_roman() needs an int, not {type(number).__name__}")
    if not MIN_VALUE <= number <= MAX_VALUE:
        raise RomanError(f"{number} is outside {MIN_VALUE}..{MAX_VALUE}")
    parts = []
    for value, symbol in _NUMERALS:
        count, number = divmod(number, value)
        parts.append(symbol * count)
    numeral = "".join(parts)
    return numeral.lower() if lowercase else numeral


def from_roman(text):
    """The value of a Roman numeral, in either case, surrounding whitespace ignored."""
    if not isinstance(text, str):
        raise TypeError(f"from_roman() needs a str, not {type(text).__name__}")
    numeral = text.strip().upper()
    if not numeral:
        raise RomanError("an empty string is not a Roman numeral")
    total = 0
    largest = 0
    for char in reversed(numeral):
        value = _VALUES.get(char)
        if value is None:
            raise RomanError(f"invalid character {char!r} in {text!r}")
        if value < largest:
            total -= value
        else:
            total += value
            largest = value
    return total


def is_roman(text):
    """Whether `text` is a valid Roman numeral."""
    try:
        from_roman(text)
    except (RomanError, TypeError):
        return False
    return True


def parse_number(text):
    """An int from decimal digits ("14") or a Roman numeral ("XIV")."""
    stripped = text.strip()
    if stripped.isdigit():
        return int(stripped)
    return from_roman(stripped)


def roman_range(start, stop, step=1):
    """Numerals for range(start, stop, step), all of which must be in 1..3999."""
    if step == 0:
        raise ValueError("step must not be zero")
    return [to_roman(number) for number in range(start, stop, step)]
