"""Shared fixtures. The repo root is put on sys.path so tests run without installing."""

import sys
from datetime import date
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pyledger import Ledger, Money  # noqa: E402


@pytest.fixture
def usd():
    def make(amount):
        return Money.of(amount, "USD")

    return make


@pytest.fixture
def household():
    """A small household ledger over the first quarter of 2024."""
    ledger = Ledger("USD")
    for name in (
        "Assets:Bank:Checking",
        "Assets:Bank:Savings",
        "Assets:Cash",
        "Liabilities:CreditCard",
        "Equity:Opening",
        "Income:Salary",
        "Income:Interest",
        "Expenses:Rent",
        "Expenses:Groceries",
        "Expenses:Transport",
    ):
        ledger.open(name)
    ledger.record(date(2024, 1, 1), "Opening balance", ("Assets:Bank:Checking", "1000.00"), ("Equity:Opening", None))
    ledger.record(date(2024, 1, 5), "January rent", ("Expenses:Rent", "800.00"), ("Assets:Bank:Checking", None))
    ledger.record(date(2024, 1, 25), "Salary", ("Assets:Bank:Checking", "3000.00"), ("Income:Salary", None))
    ledger.record(date(2024, 1, 27), "Supermarket", ("Expenses:Groceries", "123.45"), ("Liabilities:CreditCard", None))
    ledger.record(date(2024, 2, 5), "February rent", ("Expenses:Rent", "800.00"), ("Assets:Bank:Checking", None))
    ledger.record(date(2024, 2, 10), "Bus pass", ("Expenses:Transport", "55.00"), ("Assets:Cash", "-55.00"))
    ledger.record(date(2024, 2, 15), "Move to savings", ("Assets:Bank:Savings", "500.00"), ("Assets:Bank:Checking", None))
    ledger.record(date(2024, 2, 28), "Market groceries", ("Expenses:Groceries", "40.10"), ("Assets:Cash", None))
    ledger.record(date(2024, 3, 1), "Pay card", ("Liabilities:CreditCard", "123.45"), ("Assets:Bank:Checking", None))
    ledger.record(date(2024, 3, 31), "Savings interest", ("Assets:Bank:Savings", "1.25"), ("Income:Interest", None))
    return ledger
