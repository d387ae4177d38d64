from decimal import Decimal

import pytest

from pyledger.money import (
    CurrencyMismatchError,
    Money,
    MoneyParseError,
    format_money,
    group_digits,
    parse_money,
    round_amount,
    to_decimal,
)


class TestConstruction:
    def test_amount_is_rounded_to_currency_precision(self):
        assert Money.of("12.345", "USD").amount == Decimal("12.35")
        assert Money.of("12.344", "USD").amount == Decimal("12.34")

    def test_yen_has_no_decimals(self):
        assert Money.of("1234.5", "JPY").amount == Decimal("1235")

    def test_dinar_has_three_decimals(self):
        assert str(Money.of("1.2345", "KWD").amount) == "1.235"

    def test_float_is_refused(self):
        with pytest.raises(TypeError, match="float"):
            Money.of(0.1, "USD")

    @pytest.mark.parametrize("bad", ["abc", "", "NaN", "Infinity"])
    def test_non_numbers_are_refused(self, bad):
        with pytest.raises(ValueError):
            to_decimal(bad)

    @pytest.mark.parametrize("value", [True, None, [1]])
    def test_other_types_are_not_amounts(self, value):
        with pytest.raises(TypeError):
            to_decimal(value)

    def test_minor_units(self):
        assert Money.of("-12.34", "USD").minor_units == -1234


@pytest.mark.parametrize(
    "value, places, mode, expected",
    [
        ("2.345", 2, "half-up", "2.35"),
        ("2.344", 2, "half-up", "2.34"),
        ("2.345", 2, "half-even", "2.34"),
        ("2.355", 2, "half-even", "2.36"),
        ("2.341", 2, "up", "2.35"),
        ("2.349", 2, "down", "2.34"),
        ("-2.341", 2, "ceiling", "-2.34"),
        ("-2.341", 2, "floor", "-2.35"),
        ("7.5", 0, "half-up", "8"),
    ],
)
def test_round_amount_modes(value, places, mode, expected):
    assert round_amount(Decimal(value), places, mode) == Decimal(expected)


def test_round_amount_rejects_unknown_mode_and_negative_places():
    with pytest.raises(ValueError, match="unknown rounding mode"):
        round_amount(Decimal("1"), 2, "bankers")
    with pytest.raises(ValueError):
        round_amount(Decimal("1"), -1)


class TestArithmetic:
    def test_add_and_subtract(self, usd):
        assert usd("10.10") + usd("0.95") == usd("11.05")
        assert usd("10.10") - usd("0.95") == usd("9.15")

    def test_sum_starts_from_zero(self, usd):
        assert sum([usd("1.10"), usd("2.20"), usd("3.30")]) == usd("6.60")

    def test_mixing_currencies_fails(self, usd):
        with pytest.raises(CurrencyMismatchError):
            usd("1") + Money.of("1", "EUR")

    def test_adding_a_plain_number_fails(self, usd):
        with pytest.raises(TypeError):
            usd("1") + 5

    def test_multiply_rounds_result(self, usd):
        assert usd("10.00") * Decimal("0.075") == usd("0.75")
        assert 3 * usd("0.335") == usd("1.02")

    def test_money_times_money_is_an_error(self, usd):
        with pytest.raises(TypeError):
            usd("2") * usd("3")

    def test_negation_and_abs(self, usd):
        assert -usd("4.20") == usd("-4.20")
        assert abs(usd("-4.20")) == usd("4.20")

    def test_ordering(self, usd):
        assert usd("1.00") < usd("1.01")
        assert usd("2") >= usd("2.00")
        assert max([usd("3"), usd("-7"), usd("5")]) == usd("5")

    def test_ordering_across_currencies_fails(self, usd):
        with pytest.raises(CurrencyMismatchError):
            usd("1") < Money.of("2", "GBP")

    def test_sign_predicates(self, usd):
        assert usd("0").is_zero() and not usd("0").is_negative()
        assert usd("-0.01").is_negative()
        assert usd("0.01").is_positive()


class TestAllocation:
    def test_split_evenly_keeps_every_cent(self, usd):
        parts = usd("100.00").split(3)
        assert parts == [usd("33.34"), usd("33.33"), usd("33.33")]
        assert sum(parts) == usd("100.00")

    def test_allocate_by_ratio(self, usd):
        assert usd("0.05").allocate([3, 7]) == [usd("0.02"), usd("0.03")]

    def test_remainder_goes_to_largest_fraction(self, usd):
        # shares are 0.6 and 0.4 cents of a single cent
        assert usd("0.01").allocate([60, 40]) == [usd("0.01"), usd("0")]
        assert usd("0.01").allocate([40, 60]) == [usd("0"), usd("0.01")]

    def test_negative_amounts_allocate_symmetrically(self, usd):
        parts = usd("-100.00").split(3)
        assert parts == [usd("-33.34"), usd("-33.33"), usd("-33.33")]

    def test_zero_weight_part_gets_nothing(self, usd):
        assert usd("10.00").allocate([0, 1, 1]) == [usd("0"), usd("5.00"), usd("5.00")]

    @pytest.mark.parametrize("ratios", [[], [0, 0], [1, -1]])
    def test_bad_ratios(self, usd, ratios):
        with pytest.raises(ValueError):
            usd("1").allocate(ratios)

    def test_split_needs_a_positive_count(self, usd):
        with pytest.raises(ValueError):
            usd("1").split(0)


@pytest.mark.parametrize(
    "digits, expected",
    [("1", "1"), ("123", "123"), ("1234", "1,234"), ("123456", "123,456"), ("1234567", "1,234,567")],
)
def test_group_digits(digits, expected):
    assert group_digits(digits, ",") == expected


@pytest.mark.parametrize(
    "amount, code, options, expected",
    [
        ("1234.5", "USD", {}, "$1,234.50"),
        ("-5", "USD", {}, "-$5.00"),
        ("-5", "USD", {"accounting": True}, "($5.00)"),
        ("1234567", "JPY", {}, "¥1,234,567"),
        ("99.95", "CHF", {}, "99.95 CHF"),
        ("1234.5", "EUR", {"thousands_sep": ".", "decimal_sep": ","}, "€1.234,50"),
        ("1234.5", "USD", {"symbol": False}, "1,234.50 USD"),
        ("0.5", "KWD", {}, "0.500 KWD"),
    ],
)
def test_format_money(amount, code, options, expected):
    assert format_money(Money.of(amount, code), **options) == expected


def test_str_uses_format(usd):
    assert str(usd("-1234.5")) == "-$1,234.50"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("$1,234.56", ("1234.56", "USD")),
        ("-$5", ("-5", "USD")),
        ("($5.00)", ("-5", "USD")),
        ("EUR 12.50", ("12.50", "EUR")),
        ("12.50 eur", ("12.50", "EUR")),
        ("£.99", ("0.99", "GBP")),
        ("CA$7.25", ("7.25", "CAD")),
        ("¥1,000", ("1000", "JPY")),
        ("+3.10 USD", ("3.10", "USD")),
        ("7.50 €", ("7.50", "EUR")),
    ],
)
def test_parse_money(text, expected):
    amount, code = expected
    assert parse_money(text) == Money.of(amount, code)


def test_parse_uses_default_currency():
    assert parse_money("1,000.25", "CHF") == Money.of("1000.25", "CHF")


def test_parse_with_european_separators():
    assert parse_money("1.234,56 EUR", decimal_sep=",", thousands_sep=".") == Money.of("1234.56", "EUR")


@pytest.mark.parametrize(
    "text",
    ["", "$", "12", "$1,23", "$12,3456.00", "$1.2.3", "(-$5)", "$12.", "$1e5", "XYZ 12", "$١٢"],
)
def test_parse_errors(text):
    with pytest.raises(MoneyParseError):
        parse_money(text)


def test_parse_needs_distinct_separators():
    with pytest.raises(ValueError, match="must differ"):
        parse_money("1.000", "USD", decimal_sep=".", thousands_sep=".")


def test_parse_rejects_conflicting_currency():
    with pytest.raises(MoneyParseError, match="expected USD"):
        parse_money("EUR 5", "USD")


def test_parse_rejects_excess_decimals_unless_allowed():
    with pytest.raises(MoneyParseError, match="more decimals"):
        parse_money("$1.005")
    assert parse_money("$1.005", allow_rounding=True) == Money.of("1.01", "USD")


def test_parse_and_format_round_trip(usd):
    for text in ["$0.01", "-$1,000,000.00", "$999.99"]:
        assert format_money(parse_money(text)) == text

