"""Accounts, postings, balanced transactions and the ledger that holds them.

Amounts follow the debit/credit convention: a positive posting is a debit, a
negative one a credit. Every transaction sums to zero in each currency.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from enum import Enum
from typing import Optional, Sequence, Union

from .currency import Currency, get_currency
from .money import Money


class LedgerError(Exception):
    """An operation the ledger refuses: unknown account, duplicate id, currency clash."""


class UnbalancedTransactionError(LedgerError):
    """Postings that do not sum to zero."""


class AccountType(Enum):
    ASSET = "asset"
    LIABILITY = "liability"
    EQUITY = "equity"
    INCOME = "income"
    EXPENSE = "expense"

    @property
    def sign(self) -> int:
        """+1 where the normal balance is a debit (assets, expenses), -1 where it is a credit."""
        return 1 if self in (AccountType.ASSET, AccountType.EXPENSE) else -1


_ROOT_TYPES = {
    "assets": AccountType.ASSET,
    "liabilities": AccountType.LIABILITY,
    "equity": AccountType.EQUITY,
    "income": AccountType.INCOME,
    "expenses": AccountType.EXPENSE,
}


def infer_account_type(name: str) -> AccountType:
    """The type implied by the top-level name: 'Expenses:Rent' is an expense."""
    root = name.split(":", 1)[0].strip().lower()
    try:
        return _ROOT_TYPES[root]
    except KeyError:
        roots = ", ".join(sorted(_ROOT_TYPES))
        raise LedgerError(f"cannot infer the type of {name!r}: top level must be one of {roots}") from None


def validate_account_name(name: str) -> str:
    parts = name.split(":")
    if any(not part or part != part.strip() for part in parts):
        raise LedgerError(f"invalid account name {name!r}")
    return name


@dataclass(frozen=True)
class Account:
    name: str
    type: AccountType
    currency: Currency

    @property
    def parent(self) -> Optional[str]:
        head, sep, _ = self.name.rpartition(":")
        return head if sep else None

    def is_under(self, prefix: str) -> bool:
        """True for the account itself and every account below it."""
        return self.name == prefix or self.name.startswith(prefix + ":")


@dataclass(frozen=True)
class Posting:
    account: str
    amount: Money


@dataclass(frozen=True)
class Transaction:
    date: date
    description: str
    postings: tuple[Posting, ...]
    txn_id: str = ""

    def __post_init__(self) -> None:
        if len(self.postings) < 2:
            raise UnbalancedTransactionError("a transaction needs at least two postings")
        totals: dict[str, Decimal] = {}
        for posting in self.postings:
            code = posting.amount.currency.code
            totals[code] = totals.get(code, Decimal(0)) + posting.amount.amount
        unbalanced = {code: total for code, total in totals.items() if total != 0}
        if unbalanced:
            detail = ", ".join(f"{code} {total}" for code, total in sorted(unbalanced.items()))
            raise UnbalancedTransactionError(
                f"transaction {self.description!r} does not balance: off by {detail}"
            )

    @classmethod
    def build(
        cls,
        when: date,
        description: str,
        postings: Sequence[tuple[str, Optional[Money]]],
        txn_id: str = "",
    ) -> Transaction:
        """At most one posting may leave its amount as None: it receives what balances the rest."""
        missing = [index for index, (_, amount) in enumerate(postings) if amount is None]
        if len(missing) > 1:
            raise UnbalancedTransactionError("only one posting may omit its amount")
        balancing: Optional[Money] = None
        if missing:
            known = [amount for _, amount in postings if amount is not None]
            if not known:
                raise UnbalancedTransactionError("cannot infer an amount without other postings")
            if len({amount.currency for amount in known}) > 1:
                raise UnbalancedTransactionError("cannot infer an amount across currencies")
            balancing = -sum(known)
        resolved = tuple(
            Posting(account, balancing if amount is None else amount) for account, amount in postings
        )
        return cls(when, description, resolved, txn_id)

    @property
    def accounts(self) -> list[str]:
        return [posting.account for posting in self.postings]


class _AccountIndex:
    """Date-ordered postings of one account with running totals, so a balance
    as of any date is one binary search instead of a scan of the whole ledger."""

    def __init__(self, currency: Currency) -> None:
        self.dates: list[date] = []
        self.amounts: list[Money] = []
        self.running: list[Money] = []
        self.zero = Money.zero(currency)

    def add(self, when: date, amount: Money) -> None:
        position = bisect.bisect_right(self.dates, when)
        self.dates.insert(position, when)
        self.amounts.insert(position, amount)
        self.running.insert(position, amount)
        # Postings may arrive out of date order: fix the running totals from the insertion point on.
        total = self.running[position - 1] if position > 0 else self.zero
        for index in range(position, len(self.amounts)):
            total = total + self.amounts[index]
            self.running[index] = total

    def total(self, as_of: Optional[date] = None) -> Money:
        cut = len(self.dates) if as_of is None else bisect.bisect_right(self.dates, as_of)
        return self.running[cut - 1] if cut > 0 else self.zero


PostingSpec = tuple[str, Union[Money, str, int, Decimal, None]]


class Ledger:
    """Accounts and the transactions posted to them, kept in date order."""

    def __init__(self, currency: str | Currency = "USD") -> None:
        self.currency = get_currency(currency)
        self._accounts: dict[str, Account] = {}
        self._transactions: list[Transaction] = []
        self._dates: list[date] = []
        self._ids: set[str] = set()
        self._index: dict[str, _AccountIndex] = {}
        self._next_id = 1

    # accounts

    def open(
        self,
        name: str,
        type: Optional[AccountType] = None,
        currency: str | Currency | None = None,
    ) -> Account:
        validate_account_name(name)
        if name in self._accounts:
            raise LedgerError(f"account {name!r} is already open")
        account_type = type if type is not None else infer_account_type(name)
        account = Account(name, account_type, get_currency(currency or self.currency))
        parent = self._accounts.get(account.parent) if account.parent else None
        if parent is not None and parent.type != account_type:
            raise LedgerError(f"{name!r} is a {account_type.value} but its parent is a {parent.type.value}")
        if account.parent and parent is None:
            # Missing ancestors are opened too, so every prefix can be asked for its balance.
            self.open(account.parent, account_type, account.currency)
        self._accounts[name] = account
        self._index[name] = _AccountIndex(account.currency)
        return account

    def account(self, name: str) -> Account:
        try:
            return self._accounts[name]
        except KeyError:
            raise LedgerError(f"unknown account {name!r}") from None

    def has_account(self, name: str) -> bool:
        return name in self._accounts

    def accounts(self, under: Optional[str] = None) -> list[Account]:
        chosen = [a for a in self._accounts.values() if under is None or a.is_under(under)]
        return sorted(chosen, key=lambda account: account.name)

    # transactions

    def post(self, txn: Transaction) -> Transaction:
        for posting in txn.postings:
            account = self.account(posting.account)
            if posting.amount.currency != account.currency:
                raise LedgerError(
                    f"{posting.account} is kept in {account.currency.code}, "
                    f"not {posting.amount.currency.code}"
                )
        if not txn.txn_id:
            txn = replace(txn, txn_id=f"T{self._next_id:05d}")
        if txn.txn_id in self._ids:
            raise LedgerError(f"duplicate transaction id {txn.txn_id!r}")
        self._next_id += 1
        self._ids.add(txn.txn_id)
        # Equal dates keep posting order: bisect_right puts the newcomer after its peers.
        position = bisect.bisect_right(self._dates, txn.date)
        self._dates.insert(position, txn.date)
        self._transactions.insert(position, txn)
        for posting in txn.postings:
            self._index[posting.account].add(txn.date, posting.amount)
        return txn

    def record(self, when: date, description: str, *postings: PostingSpec, txn_id: str = "") -> Transaction:
        """Post from (account, amount) pairs; plain numbers are in the account's currency."""
        specs: list[tuple[str, Optional[Money]]] = []
        for name, amount in postings:
            if amount is None or isinstance(amount, Money):
                specs.append((name, amount))
            else:
                specs.append((name, Money.of(amount, self.account(name).currency)))
        return self.post(Transaction.build(when, description, specs, txn_id))

    def transfer(self, when: date, description: str, source: str, destination: str, amount: Money) -> Transaction:
        """Move ``amount`` from ``source`` to ``destination`` (credit source, debit destination)."""
        if not amount.is_positive():
            raise LedgerError("a transfer needs a positive amount")
        return self.record(when, description, (destination, amount), (source, -amount))

    def transactions(
        self,
        start: Optional[date] = None,
        end: Optional[date] = None,
        account: Optional[str] = None,
    ) -> list[Transaction]:
        """Transactions dated within [start, end] (both inclusive), optionally touching ``account``."""
        low = 0 if start is None else bisect.bisect_left(self._dates, start)
        high = len(self._dates) if end is None else bisect.bisect_right(self._dates, end)
        chosen = self._transactions[low:high]
        if account is not None:
            chosen = [
                txn
                for txn in chosen
                if any(p.account == account or p.account.startswith(account + ":") for p in txn.postings)
            ]
        return chosen

    def __len__(self) -> int:
        return len(self._transactions)

    # balances

    def balance(
        self,
        account: str,
        as_of: Optional[date] = None,
        *,
        include_children: bool = True,
        natural: bool = False,
    ) -> Money:
        """Debit-positive balance on ``as_of`` (inclusive). ``natural`` flips credit-normal
        accounts so a loan or an income reads positive."""
        target = self.account(account)
        total = Money.zero(target.currency)
        for name, index in self._index.items():
            if name == account or (include_children and name.startswith(account + ":")):
                total = total + index.total(as_of)
        return total * target.type.sign if natural else total

    def trial_balance(self, as_of: Optional[date] = None) -> dict[str, Money]:
        """Each account's own balance (children not rolled up), zero balances left out."""
        result: dict[str, Money] = {}
        for account in self.accounts():
            amount = self.balance(account.name, as_of, include_children=False)
            if not amount.is_zero():
                result[account.name] = amount
        return result

    def is_balanced(self, as_of: Optional[date] = None) -> bool:
        totals: dict[str, Decimal] = {}
        for amount in self.trial_balance(as_of).values():
            code = amount.currency.code
            totals[code] = totals.get(code, Decimal(0)) + amount.amount
        return all(total == 0 for total in totals.values())

    def close_books(self, on: date, equity_account: str) -> Optional[Transaction]:
        """Move every income and expense balance into ``equity_account``; None when all are zero."""
        equity = self.account(equity_account)
        postings: list[tuple[str, Optional[Money]]] = []
        for account in self.accounts():
            if account.type not in (AccountType.INCOME, AccountType.EXPENSE):
                continue
            if account.currency != equity.currency:
                raise LedgerError(f"cannot close {account.name} into {equity_account}: currencies differ")
            amount = self.balance(account.name, on, include_children=False)
            if not amount.is_zero():
                postings.append((account.name, -amount))
        if not postings:
            return None
        postings.append((equity_account, None))
        return self.post(Transaction.build(on, f"Close books {on.isoformat()}", postings))
