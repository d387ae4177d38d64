"""pyledger: exact money, double-entry bookkeeping, reports, CSV and loan schedules."""

from .currency import Currency, UnknownCurrencyError, get_currency, register
from .csvio import CsvFormatError, dumps, export_transactions, import_transactions, load_into, loads
from .interest import (
    Installment,
    amortisation_schedule,
    compound_amount,
    periodic_payment,
    simple_interest,
    total_interest,
)
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
from .periods import Period, add_months, iter_periods, month_period, parse_period, quarter_period, year_period
from .reports import activity, balance_sheet, income_statement, periodic_activity, running_balance, top_accounts

__version__ = "0.2.0"
