from datetime import date

import pytest

from pyledger.periods import (
    Period,
    add_months,
    days_in_month,
    is_leap_year,
    iter_periods,
    month_period,
    parse_period,
    period_containing,
    quarter_period,
    year_period,
)


@pytest.mark.parametrize("year, leap", [(2023, False), (2024, True), (1900, False), (2000, True)])
def test_is_leap_year(year, leap):
    assert is_leap_year(year) is leap


def test_days_in_month_rejects_bad_month():
    with pytest.raises(ValueError):
        days_in_month(2024, 13)


@pytest.mark.parametrize(
    "start, months, expected",
    [
        (date(2023, 1, 15), 1, date(2023, 2, 15)),
        (date(2023, 1, 31), 1, date(2023, 2, 28)),
        (date(2023, 3, 31), 1, date(2023, 4, 30)),
        (date(2023, 11, 30), 3, date(2024, 2, 29)),
        (date(2023, 12, 15), 1, date(2024, 1, 15)),
        (date(2024, 3, 15), -5, date(2023, 10, 15)),
        (date(2024, 1, 31), 0, date(2024, 1, 31)),
        (date(2024, 1, 31), 25, date(2026, 2, 28)),
    ],
)
def test_add_months(start, months, expected):
    assert add_months(start, months) == expected


def test_leap_february_has_29_days():
    assert days_in_month(2024, 2) == 29
    assert month_period(2024, 2).end == date(2024, 2, 29)
    assert add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)
    assert date(2024, 2, 29) in period_containing(date(2024, 2, 29), "month")


class TestPeriod:
    def test_contains_is_inclusive(self):
        period = Period(date(2024, 1, 1), date(2024, 1, 31))
        assert date(2024, 1, 1) in period
        assert date(2024, 1, 31) in period
        assert date(2024, 2, 1) not in period
        assert "2024-01-15" not in period

    def test_days(self):
        assert month_period(2023, 2).days == 28
        assert year_period(2024).days == 366
        assert Period(date(2024, 1, 1), date(2024, 1, 1)).days == 1

    def test_end_before_start_is_rejected(self):
        with pytest.raises(ValueError, match="before it starts"):
            Period(date(2024, 1, 2), date(2024, 1, 1))

    def test_overlaps(self):
        q1 = quarter_period(2024, 1)
        assert q1.overlaps(month_period(2024, 3))
        assert not q1.overlaps(month_period(2024, 4))

    def test_label_does_not_affect_equality(self):
        assert month_period(2024, 1) == Period(date(2024, 1, 1), date(2024, 1, 31))
        assert str(month_period(2024, 1)) == "2024-01"
        assert str(Period(date(2024, 1, 1), date(2024, 1, 2))) == "2024-01-01..2024-01-02"


@pytest.mark.parametrize(
    "quarter, start, end",
    [(1, date(2023, 1, 1), date(2023, 3, 31)), (2, date(2023, 4, 1), date(2023, 6, 30)), (4, date(2023, 10, 1), date(2023, 12, 31))],
)
def test_quarter_period(quarter, start, end):
    period = quarter_period(2023, quarter)
    assert (period.start, period.end) == (start, end)


def test_quarter_out_of_range():
    with pytest.raises(ValueError):
        quarter_period(2024, 5)


@pytest.mark.parametrize(
    "day, freq, start, end",
    [
        (date(2024, 1, 10), "week", date(2024, 1, 8), date(2024, 1, 14)),
        (date(2024, 1, 14), "week", date(2024, 1, 8), date(2024, 1, 14)),
        (date(2024, 5, 20), "month", date(2024, 5, 1), date(2024, 5, 31)),
        (date(2024, 8, 1), "quarter", date(2024, 7, 1), date(2024, 9, 30)),
        (date(2024, 8, 1), "year", date(2024, 1, 1), date(2024, 12, 31)),
    ],
)
def test_period_containing(day, freq, start, end):
    period = period_containing(day, freq)
    assert (period.start, period.end) == (start, end)


def test_period_containing_unknown_frequency():
    with pytest.raises(ValueError, match="unknown frequency"):
        period_containing(date(2024, 1, 1), "fortnight")


@pytest.mark.parametrize(
    "text, start, end",
    [
        ("2024", date(2024, 1, 1), date(2024, 12, 31)),
        ("2023-02", date(2023, 2, 1), date(2023, 2, 28)),
        ("2024-q3", date(2024, 7, 1), date(2024, 9, 30)),
        (" 2024-01-15..2024-02-14 ", date(2024, 1, 15), date(2024, 2, 14)),
    ],
)
def test_parse_period(text, start, end):
    period = parse_period(text)
    assert (period.start, period.end) == (start, end)


@pytest.mark.parametrize("text", ["24", "2024-13", "2024-Q5", "2024-01-15..", "last month"])
def test_parse_period_errors(text):
    with pytest.raises(ValueError):
        parse_period(text)


def test_iter_periods_clips_first_and_last():
    periods = list(iter_periods(date(2024, 1, 15), date(2024, 3, 10), "month"))
    assert [(p.start, p.end) for p in periods] == [
        (date(2024, 1, 15), date(2024, 1, 31)),
        (date(2024, 2, 1), date(2024, 2, 29)),
        (date(2024, 3, 1), date(2024, 3, 10)),
    ]
    assert [p.label for p in periods] == ["2024-01", "2024-02", "2024-03"]


def test_iter_periods_quarters_across_years():
    periods = list(iter_periods(date(2023, 11, 1), date(2024, 4, 1), "quarter"))
    assert [p.label for p in periods] == ["2023-Q4", "2024-Q1", "2024-Q2"]


def test_iter_periods_single_day_and_empty_range():
    assert list(iter_periods(date(2024, 1, 1), date(2024, 1, 1), "week")) == [Period(date(2024, 1, 1), date(2024, 1, 1))]
    assert list(iter_periods(date(2024, 2, 1), date(2024, 1, 1))) == []
