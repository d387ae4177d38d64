"""The "[start, end)" text form of an interval."""

from pyrange.interval import Interval


def _number(text):
    text = text.strip()
    if "." in text:
        return float(text)
    return int(text)


def parse_interval(text):
    """Read "[a, b)" (spaces optional) into an Interval."""
    text = text.strip()
    if not (text.startswith("[") and text.endswith(")")):
        raise ValueError(f"not a half-open interval: {text!r}")
    inner = text[1:-1]
    parts = inner.split(",")
    if len(parts) != 2:
        raise ValueError(f"an interval has two bounds: {text!r}")
    return Interval(_number(parts[0]), _number(parts[1]))


def format_interval(interval):
    """Write an Interval as "[a, b)"."""
    return f"[{interval.start}, {interval.end})"
