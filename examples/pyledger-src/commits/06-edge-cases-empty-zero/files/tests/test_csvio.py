import io
from datetime import date

import pytest

from pyledger.csvio import CsvFormatError, dumps, export_transactions, import_transactions, load_into, loads
from pyledger.ledger import Ledger, LedgerError
from pyledger.money import Money

HEADER = "txn_id,date,description,account,amount,currency\n"


def usd(amount):
    return Money.of(amount, "USD")


def test_export_writes_one_row_per_posting(household):
    buffer = io.StringIO()
    rows = export_transactions(household.transactions(end=date(2024, 1, 5)), buffer)
    assert rows == 4
    assert buffer.getvalue() == (
        HEADER
        + "T00001,2024-01-01,Opening balance,Assets:Bank:Checking,1000.00,USD\n"
        + "T00001,2024-01-01,Opening balance,Equity:Opening,-1000.00,USD\n"
        + "T00002,2024-01-05,January rent,Expenses:Rent,800.00,USD\n"
        + "T00002,2024-01-05,January rent,Assets:Bank:Checking,-800.00,USD\n"
    )


def test_export_quotes_awkward_descriptions():
    ledger = Ledger()
    ledger.open("Assets:Cash")
    ledger.open("Expenses:Food")
    ledger.record(date(2024, 1, 1), 'Lunch, "the good one"', ("Expenses:Food", "9.50"), ("Assets:Cash", None))
    text = dumps(ledger.transactions())
    assert '"Lunch, ""the good one"""' in text
    assert loads(text)[0].description == 'Lunch, "the good one"'


def test_round_trip_preserves_transactions(household):
    again = loads(dumps(household.transactions()))
    assert again == household.transactions()


def test_rows_are_grouped_by_id():
    text = HEADER + "A,2024-01-01,x,Assets:Cash,5,USD\nB,2024-01-02,y,Assets:Cash,7,USD\nA,2024-01-01,x,Equity:Opening,-5,USD\nB,2024-01-02,y,Equity:Opening,-7,USD\n"
    transactions = loads(text)
    assert [t.txn_id for t in transactions] == ["A", "B"]
    assert transactions[1].postings[1].amount == usd("-7")


def test_rows_without_id_continue_matching_transaction():
    text = (
        "date,description,account,amount\n"
        "2024-01-01,Coffee,Expenses:Coffee,3.50\n"
        "2024-01-01,Coffee,Assets:Cash,\n"
        "2024-01-01,Tea,Expenses:Coffee,2.00\n"
        "2024-01-01,Tea,Assets:Cash,-2.00\n"
    )
    transactions = loads(text)
    assert [(t.description, len(t.postings), t.txn_id) for t in transactions] == [("Coffee", 2, ""), ("Tea", 2, "")]
    assert transactions[0].postings[1].amount == usd("-3.50")


def test_amounts_may_use_symbols_and_default_currency():
    text = "date,account,amount\n2024-01-01,Assets:Cash,\"$1,250.00\"\n2024-01-01,Equity:Opening,(1250.00)\n"
    transaction = loads(text)[0]
    assert [p.amount for p in transaction.postings] == [usd("1250"), usd("-1250")]
    assert loads("date,account,amount\n2024-01-01,A,5\n2024-01-01,B,-5\n", default_currency="EUR")[0].postings[0].amount.currency.code == "EUR"


def test_header_is_case_insensitive_and_extra_columns_are_ignored():
    text = "Date , ACCOUNT,Amount,Memo\n2024-01-01,A,1,hello\n2024-01-01,B,-1,\n"
    assert len(import_transactions(io.StringIO(text))) == 1


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("date,amount\n", 1, "missing column(s): account"),
        (HEADER + "A,2024-13-01,x,Assets:Cash,1,USD\n", 2, "bad date"),
        (HEADER + "A,2024-01-01,x,Assets:Cash,abc,USD\n", 2, "not an amount"),
        (HEADER + "A,2024-01-01,x,Assets:Cash,1,XXX\n", 2, "unknown currency"),
        (HEADER + "A,2024-01-01,x,Assets:Cash,1\n", 2, "expected 6 fields"),
        (HEADER + "A,2024-01-01,x,Assets:Cash,1,USD\nA,2024-01-02,x,Equity:Opening,-1,USD\n", 3, "disagree on the date"),
        (HEADER + "A,2024-01-01,x,Assets:Cash,1,USD\nA,2024-01-01,x,Equity:Opening,-2,USD\n", 2, "does not balance"),
    ],
    ids=["missing-column", "bad-date", "bad-amount", "unknown-currency", "short-row", "date-mismatch", "unbalanced"],
)
def test_import_errors_name_the_line(text, line, message):
    with pytest.raises(CsvFormatError) as info:
        loads(text)
    assert info.value.line == line
    assert message in str(info.value)


@pytest.mark.parametrize(
    "text", ["", HEADER, HEADER + "\n\n", "\n"], ids=["empty", "header-only", "trailing-blank-lines", "blank-line"]
)
def test_empty_input_yields_no_transactions(text):
    assert loads(text) == []


def test_blank_lines_between_rows_are_skipped():
    text = HEADER + "A,2024-01-01,x,Assets:Cash,1,USD\n\n,,,,,\nA,2024-01-01,x,Equity:Opening,-1,USD\n"
    assert len(loads(text)[0].postings) == 2


def test_load_into_opens_missing_accounts():
    ledger = Ledger()
    text = HEADER + "A,2024-01-01,x,Assets:Cash,10,USD\nA,2024-01-01,x,Income:Gift,-10,USD\n"
    assert load_into(ledger, io.StringIO(text), open_missing=True) == 1
    assert ledger.balance("Income:Gift", natural=True) == usd("10")


def test_load_into_refuses_unknown_accounts_without_posting():
    ledger = Ledger()
    ledger.open("Assets:Cash")
    text = HEADER + "A,2024-01-01,x,Assets:Cash,10,USD\nA,2024-01-01,x,Income:Gift,-10,USD\n"
    with pytest.raises(LedgerError, match="Income:Gift"):
        load_into(ledger, io.StringIO(text))
    assert len(ledger) == 0
