"""The "[start, end)" text form of an interval."""

from pyrange.interval import Interval

OPEN, CLOSE = "[", ")"


def _number(text):
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return float(text)


def parse_interval(text):
    """Read "[a, b)" (spaces optional) into an Interval."""
    text = text.strip()
    if not (text.startswith(OPEN) and text.endswith(CLOSE)):
        raise ValueError(f"not a half-open interval: {text!r}")
    parts = text[len(OPEN):-len(CLOSE)].split(",")
    if len(parts) != 2:
        raise ValueError(f"an interval has two bounds: {text!r}")
    start, end = parts
    return Interval(_number(start), _number(end))


def format_interval(interval):
    """Write an Interval as "[a, b)"."""
    return f"{OPEN}{interval.start}, {interval.end}{CLOSE}"
