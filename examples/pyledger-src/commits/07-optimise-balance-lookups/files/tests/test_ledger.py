from datetime import date

import pytest

from pyledger.ledger import (
    Account,
    AccountType,
    Ledger,
    LedgerError,
    Posting,
    Transaction,
    UnbalancedTransactionError,
    infer_account_type,
)
from pyledger.money import Money


def usd(amount):
    return Money.of(amount, "USD")


@pytest.mark.parametrize(
    "name, expected",
    [
        ("Assets:Bank", AccountType.ASSET),
        ("liabilities:Card", AccountType.LIABILITY),
        ("Equity", AccountType.EQUITY),
        ("Income:Salary", AccountType.INCOME),
        ("Expenses:Food:Coffee", AccountType.EXPENSE),
    ],
)
def test_infer_account_type(name, expected):
    assert infer_account_type(name) is expected


def test_infer_unknown_root_fails():
    with pytest.raises(LedgerError, match="cannot infer"):
        infer_account_type("Stuff:Things")


def test_account_type_signs():
    assert [t.sign for t in AccountType] == [1, -1, -1, -1, 1]


def test_account_parent_and_prefix():
    account = Account("Assets:Bank:Checking", AccountType.ASSET, Money.zero().currency)
    assert account.parent == "Assets:Bank"
    assert account.is_under("Assets:Bank")
    assert account.is_under("Assets:Bank:Checking")
    assert not account.is_under("Assets:Ban")
    assert Account("Assets", AccountType.ASSET, Money.zero().currency).parent is None


class TestTransaction:
    def test_balanced_transaction(self):
        txn = Transaction(date(2024, 1, 1), "x", (Posting("A", usd("5")), Posting("B", usd("-5"))))
        assert txn.accounts == ["A", "B"]

    def test_unbalanced_transaction_names_the_difference(self):
        with pytest.raises(UnbalancedTransactionError, match="off by USD 0.01"):
            Transaction(date(2024, 1, 1), "x", (Posting("A", usd("5.00")), Posting("B", usd("-4.99"))))

    def test_single_posting_is_rejected(self):
        with pytest.raises(UnbalancedTransactionError, match="at least two"):
            Transaction(date(2024, 1, 1), "x", (Posting("A", usd("0")),))

    def test_each_currency_must_balance(self):
        eur = Money.of("5", "EUR")
        Transaction(
            date(2024, 1, 1),
            "fx",
            (Posting("A", usd("5")), Posting("B", usd("-5")), Posting("C", eur), Posting("D", -eur)),
        )
        with pytest.raises(UnbalancedTransactionError):
            Transaction(date(2024, 1, 1), "fx", (Posting("A", usd("5")), Posting("B", -eur)))

    def test_build_infers_the_missing_amount(self):
        txn = Transaction.build(date(2024, 1, 1), "split", [("A", usd("3")), ("B", usd("4")), ("C", None)])
        assert txn.postings[2].amount == usd("-7")

    def test_build_allows_one_missing_amount_only(self):
        with pytest.raises(UnbalancedTransactionError, match="only one"):
            Transaction.build(date(2024, 1, 1), "x", [("A", None), ("B", None), ("C", usd("1"))])

    def test_build_cannot_infer_across_currencies(self):
        with pytest.raises(UnbalancedTransactionError, match="across currencies"):
            Transaction.build(date(2024, 1, 1), "x", [("A", usd("1")), ("B", Money.of("1", "EUR")), ("C", None)])


class TestAccounts:
    def test_open_infers_type_and_currency(self):
        ledger = Ledger("EUR")
        account = ledger.open("Expenses:Rent")
        assert account.type is AccountType.EXPENSE
        assert account.currency.code == "EUR"

    def test_open_twice_fails(self):
        ledger = Ledger()
        ledger.open("Assets:Cash")
        with pytest.raises(LedgerError, match="already open"):
            ledger.open("Assets:Cash")

    @pytest.mark.parametrize("name", ["", "Assets:", ":Cash", "Assets::Cash", "Assets: Cash"])
    def test_invalid_names(self, name):
        with pytest.raises(LedgerError, match="invalid account name"):
            Ledger().open(name, AccountType.ASSET)

    def test_child_type_must_match_parent(self):
        ledger = Ledger()
        ledger.open("Assets:Bank")
        with pytest.raises(LedgerError, match="its parent is a asset"):
            ledger.open("Assets:Bank:Loan", AccountType.LIABILITY)

    def test_accounts_are_listed_sorted_and_filtered(self, household):
        names = [a.name for a in household.accounts(under="Assets:Bank")]
        assert names == ["Assets:Bank", "Assets:Bank:Checking", "Assets:Bank:Savings"]

    def test_missing_parents_are_opened(self):
        ledger = Ledger()
        ledger.open("Expenses:Food:Coffee")
        assert [a.name for a in ledger.accounts()] == ["Expenses", "Expenses:Food", "Expenses:Food:Coffee"]
        assert ledger.account("Expenses:Food").type is AccountType.EXPENSE

    def test_unknown_account(self):
        with pytest.raises(LedgerError, match="unknown account 'Nope'"):
            Ledger().account("Nope")


class TestPosting:
    def test_ids_are_assigned_in_sequence(self, household):
        ids = [txn.txn_id for txn in household.transactions()]
        assert ids[:3] == ["T00001", "T00002", "T00003"]
        assert len(household) == 10

    def test_duplicate_explicit_id_fails(self):
        ledger = Ledger()
        ledger.open("Assets:Cash")
        ledger.open("Equity:Opening")
        ledger.record(date(2024, 1, 1), "a", ("Assets:Cash", "1"), ("Equity:Opening", None), txn_id="X1")
        with pytest.raises(LedgerError, match="duplicate"):
            ledger.record(date(2024, 1, 2), "b", ("Assets:Cash", "1"), ("Equity:Opening", None), txn_id="X1")

    def test_posting_to_unknown_account_fails(self):
        ledger = Ledger()
        ledger.open("Assets:Cash")
        with pytest.raises(LedgerError, match="unknown account"):
            ledger.record(date(2024, 1, 1), "a", ("Assets:Cash", "1"), ("Income:Gift", "-1"))
        assert len(ledger) == 0

    def test_posting_in_wrong_currency_fails(self):
        ledger = Ledger()
        ledger.open("Assets:Cash")
        ledger.open("Assets:Euro", currency="EUR")
        with pytest.raises(LedgerError, match="kept in USD"):
            ledger.post(
                Transaction(
                    date(2024, 1, 1),
                    "x",
                    (Posting("Assets:Cash", Money.of("1", "EUR")), Posting("Assets:Euro", Money.of("-1", "EUR"))),
                )
            )

    def test_transactions_are_kept_in_date_order(self):
        ledger = Ledger()
        ledger.open("Assets:Cash")
        ledger.open("Equity:Opening")
        for day, text in [(5, "late"), (1, "early"), (5, "late again"), (3, "middle")]:
            ledger.record(date(2024, 1, day), text, ("Assets:Cash", "1"), ("Equity:Opening", None))
        assert [t.description for t in ledger.transactions()] == ["early", "middle", "late", "late again"]

    def test_transactions_date_range_is_inclusive(self, household):
        found = household.transactions(date(2024, 1, 5), date(2024, 1, 27))
        assert [t.description for t in found] == ["January rent", "Salary", "Supermarket"]

    def test_transactions_filtered_by_account_prefix(self, household):
        found = household.transactions(account="Assets:Cash")
        assert [t.description for t in found] == ["Bus pass", "Market groceries"]

    def test_transfer(self):
        ledger = Ledger()
        ledger.open("Assets:A")
        ledger.open("Assets:B")
        ledger.transfer(date(2024, 1, 1), "move", "Assets:A", "Assets:B", usd("25"))
        assert ledger.balance("Assets:A") == usd("-25")
        assert ledger.balance("Assets:B") == usd("25")
        with pytest.raises(LedgerError, match="positive"):
            ledger.transfer(date(2024, 1, 1), "move", "Assets:A", "Assets:B", usd("0"))


class TestBalances:
    def test_balance_rolls_up_children(self, household):
        assert household.balance("Assets:Bank:Checking") == usd("1776.55")
        assert household.balance("Assets:Bank:Savings") == usd("501.25")
        assert household.balance("Assets:Bank") == usd("2277.80")
        assert household.balance("Assets:Bank", include_children=False) == usd("0")

    def test_balance_as_of_is_inclusive(self, household):
        assert household.balance("Assets:Bank:Checking", date(2024, 1, 4)) == usd("1000.00")
        assert household.balance("Assets:Bank:Checking", date(2024, 1, 5)) == usd("200.00")
        assert household.balance("Assets:Bank:Checking", date(2023, 12, 31)) == usd("0")

    def test_natural_balance_flips_credit_accounts(self, household):
        assert household.balance("Income:Salary") == usd("-3000.00")
        assert household.balance("Income:Salary", natural=True) == usd("3000.00")
        assert household.balance("Liabilities:CreditCard", date(2024, 2, 1), natural=True) == usd("123.45")

    def test_out_of_order_postings_update_later_balances(self):
        ledger = Ledger()
        ledger.open("Assets:Cash")
        ledger.open("Equity:Opening")
        ledger.record(date(2024, 1, 10), "b", ("Assets:Cash", "10"), ("Equity:Opening", None))
        ledger.record(date(2024, 1, 20), "c", ("Assets:Cash", "100"), ("Equity:Opening", None))
        ledger.record(date(2024, 1, 1), "a", ("Assets:Cash", "1"), ("Equity:Opening", None))
        assert ledger.balance("Assets:Cash", date(2024, 1, 1)) == usd("1")
        assert ledger.balance("Assets:Cash", date(2024, 1, 15)) == usd("11")
        assert ledger.balance("Assets:Cash") == usd("111")

    def test_trial_balance_sums_to_zero(self, household):
        trial = household.trial_balance()
        assert "Assets:Bank" not in trial
        assert sum(trial.values()) == usd("0")
        assert household.is_balanced()

    def test_trial_balance_as_of(self, household):
        assert household.trial_balance(date(2024, 1, 1)) == {
            "Assets:Bank:Checking": usd("1000.00"),
            "Equity:Opening": usd("-1000.00"),
        }

    def test_close_books_moves_results_to_equity(self, household):
        household.open("Equity:Retained")
        closing = household.close_books(date(2024, 3, 31), "Equity:Retained")
        assert closing is not None
        assert household.balance("Equity:Retained") == usd("-1182.70")
        for name in ("Income", "Expenses"):
            assert household.balance(name).is_zero()
        assert household.close_books(date(2024, 3, 31), "Equity:Retained") is None
