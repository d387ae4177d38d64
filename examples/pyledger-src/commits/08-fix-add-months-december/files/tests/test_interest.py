from datetime import date
import pytest

from pyledger.interest import (
    amortisation_schedule,
    compound_amount,
    periodic_payment,
    simple_interest,
    total_interest,
)
from pyledger.money import Money


def usd(amount):
    return Money.of(amount, "USD")


@pytest.mark.parametrize(
    "day_count, expected",
    [("actual/365", "50.41"), ("actual/360", "51.11")],
)
def test_simple_interest_day_counts(day_count, expected):
    # 92 days at 2% on 10,000
    assert simple_interest(usd("10000"), "0.02", date(2023, 1, 1), date(2023, 4, 3), day_count) == usd(expected)


def test_simple_interest_exact_value():
    assert simple_interest(usd("1000"), "0.05", date(2024, 1, 1), date(2025, 1, 1)) == usd("50.14")
    assert simple_interest(usd("1000"), "0.05", date(2023, 1, 1), date(2024, 1, 1)) == usd("50.00")


def test_simple_interest_same_day_is_zero():
    assert simple_interest(usd("1000"), "0.05", date(2024, 1, 1), date(2024, 1, 1)).is_zero()


@pytest.mark.parametrize(
    "args, message",
    [
        (("0.05", date(2024, 2, 1), date(2024, 1, 1)), "before start"),
        (("0.05", date(2024, 1, 1), date(2024, 2, 1), "30/360"), "unknown day count"),
        (("-0.01", date(2024, 1, 1), date(2024, 2, 1)), "negative"),
    ],
)
def test_simple_interest_errors(args, message):
    with pytest.raises(ValueError, match=message):
        simple_interest(usd("100"), *args)


def test_compound_amount():
    assert compound_amount(usd("1000"), "0.12", 1, 12) == usd("1126.83")
    assert compound_amount(usd("1000"), "0.05", 2, 1) == usd("1102.50")
    assert compound_amount(usd("1000"), "0.05", 0) == usd("1000")


def test_compound_amount_errors():
    with pytest.raises(ValueError):
        compound_amount(usd("1"), "0.1", -1)
    with pytest.raises(ValueError):
        compound_amount(usd("1"), "0.1", 1, 0)


@pytest.mark.parametrize(
    "principal, rate, periods, per_year, expected",
    [
        ("200000", "0.06", 360, 12, "1199.10"),
        ("10000", "0.05", 12, 12, "856.07"),
        ("5000", "0.08", 4, 1, "1509.60"),
        ("1200", "0", 12, 12, "100.00"),
        ("1000", "0", 3, 12, "333.33"),
    ],
)
def test_periodic_payment(principal, rate, periods, per_year, expected):
    assert periodic_payment(usd(principal), rate, periods, per_year) == usd(expected)


def test_periodic_payment_needs_a_period():
    with pytest.raises(ValueError):
        periodic_payment(usd("100"), "0.05", 0)


class TestSchedule:
    def test_schedule_repays_principal_exactly(self):
        schedule = amortisation_schedule(usd("10000"), "0.05", 12, date(2024, 1, 15))
        assert len(schedule) == 12
        assert schedule[-1].balance.is_zero()
        assert sum(item.principal for item in schedule) == usd("10000")
        assert schedule[0].interest == usd("41.67")
        assert schedule[0].principal == usd("814.40")

    def test_final_payment_absorbs_rounding(self):
        schedule = amortisation_schedule(usd("10000"), "0.05", 12, date(2024, 1, 15))
        assert all(item.payment == usd("856.07") for item in schedule[:-1])
        assert schedule[-1].payment == usd("856.12")
        assert total_interest(schedule) == usd("272.89")

    def test_due_dates_do_not_drift_at_month_end(self):
        schedule = amortisation_schedule(usd("3000"), "0.1", 4, date(2024, 1, 31))
        assert [item.due for item in schedule] == [
            date(2024, 1, 31),
            date(2024, 2, 29),
            date(2024, 3, 31),
            date(2024, 4, 30),
        ]

    def test_quarterly_schedule_dates(self):
        schedule = amortisation_schedule(usd("4000"), "0.04", 4, date(2024, 3, 31), periods_per_year=4)
        assert [item.due for item in schedule] == [
            date(2024, 3, 31),
            date(2024, 6, 30),
            date(2024, 9, 30),
            date(2024, 12, 31),
        ]

    def test_zero_rate_schedule_has_no_interest(self):
        schedule = amortisation_schedule(usd("1000"), "0", 3, date(2024, 1, 1))
        assert [item.payment for item in schedule] == [usd("333.33"), usd("333.33"), usd("333.34")]
        assert total_interest(schedule).is_zero()

    def test_zero_principal_gives_empty_schedule(self):
        assert amortisation_schedule(usd("0"), "0.05", 12, date(2024, 1, 1)) == []
        with pytest.raises(ValueError, match="empty schedule"):
            total_interest([])

    @pytest.mark.parametrize(
        "principal, per_year",
        [("-1", 12), ("100", 5)],
    )
    def test_schedule_argument_errors(self, principal, per_year):
        with pytest.raises(ValueError):
            amortisation_schedule(usd(principal), "0.05", 12, date(2024, 1, 1), per_year)
