"""Half-open intervals [start, end) and their text form."""

from pyrange.interval import Interval
from pyrange.text import format_interval, parse_interval

__all__ = ["Interval", "format_interval", "parse_interval"]
