from datetime import date

import pytest

from pyledger.ledger import AccountType, Ledger, LedgerError
from pyledger.money import Money
from pyledger.periods import month_period, quarter_period
from pyledger.reports import (
    activity,
    balance_sheet,
    income_statement,
    periodic_activity,
    running_balance,
    top_accounts,
)


def usd(amount):
    return Money.of(amount, "USD")


def test_activity_within_period(household):
    assert activity(household, "Expenses", month_period(2024, 1)) == usd("923.45")
    assert activity(household, "Expenses:Rent", quarter_period(2024, 1)) == usd("1600.00")
    assert activity(household, "Expenses", month_period(2024, 4)) == usd("0")


def test_activity_without_children(household):
    assert activity(household, "Assets:Bank", month_period(2024, 1), include_children=False).is_zero()


def test_activity_counts_boundary_days(household):
    # rent on Feb 5 and the card payment on Mar 1 sit on either side of February
    assert activity(household, "Assets:Bank:Checking", month_period(2024, 2)) == usd("-1300.00")
    assert activity(household, "Assets:Bank:Checking", month_period(2024, 3)) == usd("-123.45")


class TestIncomeStatement:
    def test_lines_are_positive_and_sorted(self, household):
        statement = income_statement(household, quarter_period(2024, 1))
        assert [(l.account, l.amount) for l in statement.income] == [
            ("Income:Interest", usd("1.25")),
            ("Income:Salary", usd("3000.00")),
        ]
        assert [l.account for l in statement.expenses] == [
            "Expenses:Groceries",
            "Expenses:Rent",
            "Expenses:Transport",
        ]

    def test_totals_and_net(self, household):
        statement = income_statement(household, quarter_period(2024, 1))
        assert statement.total_income == usd("3001.25")
        assert statement.total_expenses == usd("1818.55")
        assert statement.net_income == usd("1182.70")

    def test_quiet_accounts_are_left_out(self, household):
        statement = income_statement(household, month_period(2024, 3))
        assert [l.account for l in statement.income] == ["Income:Interest"]
        assert statement.expenses == ()
        assert statement.net_income == usd("1.25")

    def test_foreign_currency_account_is_refused(self, household):
        household.open("Income:Royalties", currency="EUR")
        with pytest.raises(LedgerError, match="reports need USD"):
            income_statement(household, month_period(2024, 1))


def test_balance_sheet_balances(household):
    sheet = balance_sheet(household, date(2024, 2, 29))
    assert sheet.total("assets") == usd("2304.90")
    assert sheet.total("liabilities") == usd("123.45")
    assert sheet.total("equity") == usd("1000.00")
    assert sheet.retained_earnings == usd("1181.45")
    assert sheet.is_balanced


def test_balance_sheet_before_any_activity(household):
    sheet = balance_sheet(household, date(2023, 12, 31))
    assert sheet.assets == () and sheet.retained_earnings.is_zero()
    assert sheet.is_balanced


def test_periodic_activity_lists_quiet_months(household):
    rows = periodic_activity(household, "Expenses:Groceries", date(2024, 1, 1), date(2024, 4, 30))
    assert [(p.label, m) for p, m in rows] == [
        ("2024-01", usd("123.45")),
        ("2024-02", usd("40.10")),
        ("2024-03", usd("0")),
        ("2024-04", usd("0")),
    ]


def test_running_balance_from_opening(household):
    lines = running_balance(household, "Assets:Bank:Checking", start=date(2024, 2, 1))
    assert [(l.description, l.balance) for l in lines] == [
        ("February rent", usd("2400.00")),
        ("Move to savings", usd("1900.00")),
        ("Pay card", usd("1776.55")),
    ]


def test_running_balance_whole_history_includes_children(household):
    lines = running_balance(household, "Assets:Bank")
    assert len(lines) == 8
    assert lines[-1].balance == household.balance("Assets:Bank")


@pytest.mark.parametrize(
    "account_type, limit, expected",
    [
        (AccountType.EXPENSE, 2, ["Expenses:Rent", "Expenses:Groceries"]),
        (AccountType.EXPENSE, 10, ["Expenses:Rent", "Expenses:Groceries", "Expenses:Transport"]),
        (AccountType.INCOME, 1, ["Income:Salary"]),
        (AccountType.EXPENSE, 0, []),
    ],
)
def test_top_accounts(household, account_type, limit, expected):
    lines = top_accounts(household, quarter_period(2024, 1), account_type, limit)
    assert [line.account for line in lines] == expected


def test_top_accounts_ties_break_by_name():
    ledger = Ledger()
    for name in ("Assets:Cash", "Expenses:B", "Expenses:A"):
        ledger.open(name)
    ledger.record(date(2024, 1, 1), "x", ("Expenses:B", "5"), ("Expenses:A", "5"), ("Assets:Cash", None))
    assert [l.account for l in top_accounts(ledger, month_period(2024, 1))] == ["Expenses:A", "Expenses:B"]


def test_top_accounts_rejects_balance_sheet_types(household):
    with pytest.raises(ValueError):
        top_accounts(household, month_period(2024, 1), AccountType.ASSET)
    with pytest.raises(ValueError):
        top_accounts(household, month_period(2024, 1), limit=-1)
