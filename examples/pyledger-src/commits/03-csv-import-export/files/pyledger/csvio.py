"""CSV import and export of transactions: one row per posting.

Rows of one transaction share a ``txn_id``. A row without an id continues the
previous transaction when its date and description match, else starts a new one.
An empty amount marks the posting that balances the rest.
"""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Iterable, Optional, TextIO

from .currency import UnknownCurrencyError
from .ledger import Ledger, LedgerError, Transaction, UnbalancedTransactionError
from .money import Money, MoneyParseError, parse_money

COLUMNS = ("txn_id", "date", "description", "account", "amount", "currency")
REQUIRED_COLUMNS = ("date", "account", "amount")


class CsvFormatError(ValueError):
    """A CSV file that cannot be read as transactions; ``line`` is 1-based."""

    def __init__(self, message: str, line: Optional[int] = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line


def export_transactions(transactions: Iterable[Transaction], stream: TextIO) -> int:
    """Write a header and one row per posting; returns the number of posting rows."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(COLUMNS)
    rows = 0
    for txn in transactions:
        for posting in txn.postings:
            writer.writerow(
                [
                    txn.txn_id,
                    txn.date.isoformat(),
                    txn.description,
                    posting.account,
                    str(posting.amount.amount),
                    posting.amount.currency.code,
                ]
            )
            rows += 1
    return rows


def dumps(transactions: Iterable[Transaction]) -> str:
    buffer = io.StringIO()
    export_transactions(transactions, buffer)
    return buffer.getvalue()


class _Group:
    def __init__(self, when: date, description: str, line: int) -> None:
        self.date = when
        self.description = description
        self.line = line
        self.postings: list[tuple[str, Optional[Money]]] = []


def import_transactions(stream: TextIO, *, default_currency: str = "USD") -> list[Transaction]:
    """Read transactions written by :func:`export_transactions` (or by hand)."""
    reader = csv.reader(stream)
    header = next(reader)
    names = [name.strip().lower() for name in header]
    missing = [name for name in REQUIRED_COLUMNS if name not in names]
    if missing:
        raise CsvFormatError(f"missing column(s): {', '.join(missing)}", 1)
    column = {name: index for index, name in enumerate(names)}
    groups: dict[str, _Group] = {}
    previous_key: Optional[str] = None
    for line, row in enumerate(reader, start=2):
        if len(row) < len(names):
            raise CsvFormatError(f"expected {len(names)} fields, got {len(row)}", line)

        def cell(name: str) -> str:
            return row[column[name]].strip() if name in column else ""

        try:
            when = date.fromisoformat(cell("date"))
        except ValueError:
            raise CsvFormatError(f"bad date {cell('date')!r}", line) from None
        description = cell("description")
        amount: Optional[Money] = None
        if cell("amount"):
            try:
                amount = parse_money(cell("amount"), cell("currency") or default_currency)
            except (MoneyParseError, UnknownCurrencyError) as error:
                raise CsvFormatError(str(error), line) from None
        key = cell("txn_id")
        if not key:
            prior = groups.get(previous_key) if previous_key else None
            same = prior is not None and prior.date == when and prior.description == description
            key = previous_key if same else f"#{line}"
        group = groups.get(key)
        if group is None:
            group = groups[key] = _Group(when, description, line)
        elif group.date != when:
            raise CsvFormatError(f"rows of transaction {key!r} disagree on the date", line)
        group.postings.append((cell("account"), amount))
        previous_key = key
    result = []
    for key, group in groups.items():
        txn_id = "" if key.startswith("#") else key
        try:
            result.append(Transaction.build(group.date, group.description, group.postings, txn_id))
        except UnbalancedTransactionError as error:
            raise CsvFormatError(str(error), group.line) from None
    return result


def loads(text: str, *, default_currency: str = "USD") -> list[Transaction]:
    return import_transactions(io.StringIO(text), default_currency=default_currency)


def load_into(ledger: Ledger, stream: TextIO, *, open_missing: bool = False) -> int:
    """Import and post every transaction; returns how many were posted.

    With ``open_missing`` unknown accounts are opened (type inferred from the name);
    otherwise they are an error and nothing is posted.
    """
    transactions = import_transactions(stream, default_currency=ledger.currency.code)
    unknown = sorted({name for txn in transactions for name in txn.accounts if not ledger.has_account(name)})
    if unknown and not open_missing:
        raise LedgerError(f"unknown account(s): {', '.join(unknown)}")
    for name in unknown:
        if ledger.has_account(name):
            continue  # opened as the parent of an earlier one
        currency = next(p.amount.currency for txn in transactions for p in txn.postings if p.account == name)
        ledger.open(name, currency=currency)
    for txn in transactions:
        ledger.post(txn)
    return len(transactions)
