"""Calendar periods (weeks, months, quarters, years) and iteration over date ranges."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Iterator

FREQUENCIES = ("week", "month", "quarter", "year")

_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_YEAR_RE = re.compile(r"^(\d{4})$")
_MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")
_QUARTER_RE = re.compile(r"^(\d{4})-[Qq]([1-4])$")
_RANGE_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$")


def is_leap_year(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year: int, month: int) -> int:
    if not 1 <= month <= 12:
        raise ValueError(f"month must be 1..12, got {month}")
    if month == 2 and is_leap_year(year):
        return 29
    return _DAYS_IN_MONTH[month - 1]


def add_months(day: date, months: int) -> date:
    """Shift by whole months, clamping to the last day: Jan 31 + 1 month is the end of February."""
    total = day.month + months
    year = day.year + total // 12
    month = total % 12 or 12
    return date(year, month, min(day.day, days_in_month(year, month)))


@dataclass(frozen=True, order=True)
class Period:
    """A closed date range [start, end]."""

    start: date
    end: date
    label: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"period ends ({self.end}) before it starts ({self.start})")

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.start <= day <= self.end

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def overlaps(self, other: Period) -> bool:
        return self.start <= other.end and other.start <= self.end

    def __str__(self) -> str:
        return self.label or f"{self.start.isoformat()}..{self.end.isoformat()}"


def month_period(year: int, month: int) -> Period:
    return Period(date(year, month, 1), date(year, month, days_in_month(year, month)), f"{year:04d}-{month:02d}")


def quarter_period(year: int, quarter: int) -> Period:
    if not 1 <= quarter <= 4:
        raise ValueError(f"quarter must be 1..4, got {quarter}")
    first_month = 3 * (quarter - 1) + 1
    start = date(year, first_month, 1)
    end = month_period(year, first_month + 2).end
    return Period(start, end, f"{year:04d}-Q{quarter}")


def year_period(year: int) -> Period:
    return Period(date(year, 1, 1), date(year, 12, 31), f"{year:04d}")


def period_containing(day: date, freq: str) -> Period:
    """The week (Monday first), month, quarter or year that ``day`` falls in."""
    if freq == "week":
        start = day - timedelta(days=day.weekday())
        return Period(start, start + timedelta(days=6), f"{start.isoformat()}/W")
    if freq == "month":
        return month_period(day.year, day.month)
    if freq == "quarter":
        return quarter_period(day.year, (day.month - 1) // 3 + 1)
    if freq == "year":
        return year_period(day.year)
    raise ValueError(f"unknown frequency {freq!r}; expected one of {', '.join(FREQUENCIES)}")


def parse_period(text: str) -> Period:
    """'2024', '2024-03', '2024-Q1' or '2024-01-15..2024-02-14'."""
    value = text.strip()
    if match := _YEAR_RE.match(value):
        return year_period(int(match[1]))
    if match := _MONTH_RE.match(value):
        month = int(match[2])
        if not 1 <= month <= 12:
            raise ValueError(f"bad month in {text!r}")
        return month_period(int(match[1]), month)
    if match := _QUARTER_RE.match(value):
        return quarter_period(int(match[1]), int(match[2]))
    if match := _RANGE_RE.match(value):
        return Period(date.fromisoformat(match[1]), date.fromisoformat(match[2]))
    raise ValueError(f"not a period: {text!r}")


def iter_periods(start: date, end: date, freq: str = "month") -> Iterator[Period]:
    """Consecutive calendar periods covering [start, end]; the first and last are clipped."""
    if end < start:
        return
    current = period_containing(start, freq)
    while current.start <= end:
        yield Period(max(current.start, start), min(current.end, end), current.label)
        current = period_containing(current.end + timedelta(days=1), freq)
