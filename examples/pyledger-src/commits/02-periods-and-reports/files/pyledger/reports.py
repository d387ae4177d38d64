"""Reports over a ledger: period activity, income statement, balance sheet, registers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Optional

from .ledger import AccountType, Ledger, LedgerError
from .money import Money
from .periods import Period, iter_periods


@dataclass(frozen=True)
class StatementLine:
    account: str
    amount: Money


@dataclass(frozen=True)
class IncomeStatement:
    period: Period
    income: tuple[StatementLine, ...]
    expenses: tuple[StatementLine, ...]
    total_income: Money
    total_expenses: Money

    @property
    def net_income(self) -> Money:
        return self.total_income - self.total_expenses


@dataclass(frozen=True)
class BalanceSheet:
    as_of: date
    assets: tuple[StatementLine, ...]
    liabilities: tuple[StatementLine, ...]
    equity: tuple[StatementLine, ...]
    retained_earnings: Money

    def total(self, section: str) -> Money:
        lines = getattr(self, section)
        return sum((line.amount for line in lines), Money.zero(self.retained_earnings.currency))

    @property
    def is_balanced(self) -> bool:
        """Assets = liabilities + equity + earnings not yet closed into equity."""
        right = self.total("liabilities") + self.total("equity") + self.retained_earnings
        return self.total("assets") == right


@dataclass(frozen=True)
class RegisterLine:
    date: date
    description: str
    amount: Money
    balance: Money


def activity(ledger: Ledger, account: str, period: Period, *, include_children: bool = True) -> Money:
    """Debit-positive sum of the postings to ``account`` dated within ``period``."""
    target = ledger.account(account)
    total = Money.zero(target.currency)
    for txn in ledger.transactions(period.start, period.end):
        for posting in txn.postings:
            if posting.account == account or (include_children and posting.account.startswith(account + ":")):
                total = total + posting.amount
    return total


def _lines(ledger: Ledger, account_type: AccountType, amount_of) -> tuple[StatementLine, ...]:
    lines = []
    for account in ledger.accounts():
        if account.type != account_type:
            continue
        if account.currency != ledger.currency:
            raise LedgerError(f"{account.name} is in {account.currency.code}; reports need {ledger.currency.code}")
        amount = amount_of(account.name) * account_type.sign
        if not amount.is_zero():
            lines.append(StatementLine(account.name, amount))
    return tuple(lines)


def _sum(lines: tuple[StatementLine, ...], ledger: Ledger) -> Money:
    return sum((line.amount for line in lines), Money.zero(ledger.currency))


def income_statement(ledger: Ledger, period: Period) -> IncomeStatement:
    """Income and expenses of each account (not rolled up) within ``period``, both shown positive."""

    def amount_of(name: str) -> Money:
        return activity(ledger, name, period, include_children=False)

    income = _lines(ledger, AccountType.INCOME, amount_of)
    expenses = _lines(ledger, AccountType.EXPENSE, amount_of)
    return IncomeStatement(period, income, expenses, _sum(income, ledger), _sum(expenses, ledger))


def balance_sheet(ledger: Ledger, as_of: date) -> BalanceSheet:
    def amount_of(name: str) -> Money:
        return ledger.balance(name, as_of, include_children=False)

    income = _sum(_lines(ledger, AccountType.INCOME, amount_of), ledger)
    expenses = _sum(_lines(ledger, AccountType.EXPENSE, amount_of), ledger)
    return BalanceSheet(
        as_of,
        _lines(ledger, AccountType.ASSET, amount_of),
        _lines(ledger, AccountType.LIABILITY, amount_of),
        _lines(ledger, AccountType.EQUITY, amount_of),
        income - expenses,
    )


def periodic_activity(
    ledger: Ledger, account: str, start: date, end: date, freq: str = "month"
) -> list[tuple[Period, Money]]:
    """Activity of ``account`` per calendar period; quiet periods are listed with zero."""
    return [(period, activity(ledger, account, period)) for period in iter_periods(start, end, freq)]


def running_balance(
    ledger: Ledger, account: str, start: Optional[date] = None, end: Optional[date] = None
) -> list[RegisterLine]:
    """One line per posting to ``account`` (children included) with the balance after it.

    The running balance starts from the balance on the day before ``start``.
    """
    if start is None:
        balance = Money.zero(ledger.account(account).currency)
    else:
        balance = ledger.balance(account, start - timedelta(days=1))
    lines = []
    for txn in ledger.transactions(start, end, account=account):
        for posting in txn.postings:
            if posting.account == account or posting.account.startswith(account + ":"):
                balance = balance + posting.amount
                lines.append(RegisterLine(txn.date, txn.description, posting.amount, balance))
    return lines


def top_accounts(
    ledger: Ledger, period: Period, account_type: AccountType = AccountType.EXPENSE, limit: int = 5
) -> list[StatementLine]:
    """The largest accounts of a type over a period, biggest first, ties by name."""
    if limit < 0:
        raise ValueError("limit must not be negative")
    statement = income_statement(ledger, period)
    if account_type == AccountType.INCOME:
        lines = list(statement.income)
    elif account_type == AccountType.EXPENSE:
        lines = list(statement.expenses)
    else:
        raise ValueError("top_accounts ranks income or expense accounts only")
    lines.sort(key=lambda line: (-line.amount.amount, line.account))
    return lines[:limit]
