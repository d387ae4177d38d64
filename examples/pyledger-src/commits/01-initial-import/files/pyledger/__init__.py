"""pyledger: exact money and double-entry bookkeeping."""

from .currency import Currency, UnknownCurrencyError, get_currency, register
from .ledger import (
    Account,
    AccountType,
    Ledger,
    LedgerError,
    Posting,
    Transaction,
    UnbalancedTransactionError,
)
from .money import CurrencyMismatchError, Money, MoneyParseError, format_money, parse_money, round_amount

__version__ = "0.1.0"
