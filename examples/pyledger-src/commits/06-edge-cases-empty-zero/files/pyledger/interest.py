"""Interest and loan amortisation schedules."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Sequence

from .money import AmountLike, Money, to_decimal
from .periods import add_months

DAY_COUNT_BASIS = {"actual/365": 365, "actual/360": 360}
PAYMENT_FREQUENCIES = (1, 2, 4, 12)


def _rate(annual_rate: AmountLike) -> Decimal:
    rate = to_decimal(annual_rate)
    if rate < 0:
        raise ValueError("negative interest rates are not supported")
    return rate


def simple_interest(
    principal: Money, annual_rate: AmountLike, start: date, end: date, day_count: str = "actual/365"
) -> Money:
    """Interest accrued from ``start`` to ``end`` (end exclusive, as banks count days)."""
    if end < start:
        raise ValueError("end date is before start date")
    try:
        basis = DAY_COUNT_BASIS[day_count]
    except KeyError:
        raise ValueError(f"unknown day count convention {day_count!r}") from None
    days = (end - start).days
    return principal * (_rate(annual_rate) * days / basis)


def compound_amount(principal: Money, annual_rate: AmountLike, years: int, periods_per_year: int = 12) -> Money:
    """Principal plus interest compounded ``periods_per_year`` times a year."""
    if years < 0:
        raise ValueError("years must not be negative")
    if periods_per_year < 1:
        raise ValueError("periods_per_year must be at least 1")
    rate = _rate(annual_rate) / periods_per_year
    return principal * (1 + rate) ** (years * periods_per_year)


def periodic_payment(principal: Money, annual_rate: AmountLike, periods: int, periods_per_year: int = 12) -> Money:
    """The level payment that repays ``principal`` over ``periods`` (an annuity)."""
    if periods < 1:
        raise ValueError("a loan needs at least one period")
    rate = _rate(annual_rate) / periods_per_year
    if rate == 0:
        # The annuity formula divides by zero here; without interest it is plain division.
        return Money(principal.amount / periods, principal.currency)
    factor = (1 + rate) ** periods
    return Money(principal.amount * rate * factor / (factor - 1), principal.currency)


@dataclass(frozen=True)
class Installment:
    number: int
    due: date
    payment: Money
    interest: Money
    principal: Money
    balance: Money


def amortisation_schedule(
    principal: Money,
    annual_rate: AmountLike,
    periods: int,
    first_due: date,
    periods_per_year: int = 12,
) -> list[Installment]:
    """Level payments; the final one absorbs the cents that rounding left over."""
    if periods_per_year not in PAYMENT_FREQUENCIES:
        raise ValueError(f"periods_per_year must be one of {PAYMENT_FREQUENCIES}")
    if principal.is_negative():
        raise ValueError("principal must not be negative")
    if principal.is_zero():
        return []
    payment = periodic_payment(principal, annual_rate, periods, periods_per_year)
    rate = _rate(annual_rate) / periods_per_year
    months_between = 12 // periods_per_year
    balance = principal
    schedule = []
    for number in range(1, periods + 1):
        interest = balance * rate
        if number == periods:
            repaid = balance
            paid = balance + interest
        else:
            repaid = payment - interest
            paid = payment
        balance = balance - repaid
        # Dates count from the first due date so Jan 31, Feb 29, Mar 31 do not drift to the 29th.
        due = add_months(first_due, (number - 1) * months_between)
        schedule.append(Installment(number, due, paid, interest, repaid, balance))
    return schedule


def total_interest(schedule: Sequence[Installment]) -> Money:
    if not schedule:
        raise ValueError("an empty schedule has no currency; nothing to total")
    return sum((item.interest for item in schedule), Money.zero(schedule[0].interest.currency))
