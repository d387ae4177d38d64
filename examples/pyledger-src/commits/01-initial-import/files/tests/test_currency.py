from decimal import Decimal

import pytest

from pyledger.currency import (
    Currency,
    UnknownCurrencyError,
    currency_for_symbol,
    get_currency,
    known_codes,
    register,
)


def test_builtin_currencies_are_registered():
    assert {"USD", "EUR", "GBP", "JPY", "CHF", "KWD"} <= set(known_codes())


@pytest.mark.parametrize(
    "code, quantum",
    [("USD", Decimal("0.01")), ("JPY", Decimal("1")), ("KWD", Decimal("0.001"))],
)
def test_quantum_follows_minor_units(code, quantum):
    assert get_currency(code).quantum == quantum


def test_lookup_is_case_insensitive_and_strips():
    assert get_currency(" eur ").code == "EUR"


def test_currency_instance_passes_through():
    usd = get_currency("USD")
    assert get_currency(usd) is usd


def test_unknown_code_raises_readable_error():
    with pytest.raises(UnknownCurrencyError) as info:
        get_currency("XYZ")
    assert str(info.value) == "unknown currency 'XYZ'"


@pytest.mark.parametrize("code, units", [("usd", 2), ("US", 2), ("USDX", 2), ("ABC", -1), ("ABC", 9)])
def test_invalid_currency_definitions(code, units):
    with pytest.raises(ValueError):
        Currency(code, units)


def test_register_rejects_conflicting_redefinition():
    with pytest.raises(ValueError, match="already registered"):
        register(Currency("USD", 3, "$"))
    # identical re-registration is harmless
    assert register(Currency("USD", 2, "$", "US dollar")).minor_units == 2


def test_register_custom_currency():
    points = register(Currency("PTS", 0, "", "Loyalty points"))
    assert get_currency("pts") == points
    assert points.display_symbol == "PTS"


def test_first_registered_symbol_wins():
    assert currency_for_symbol("$").code == "USD"
    assert currency_for_symbol("CA$").code == "CAD"
    with pytest.raises(UnknownCurrencyError):
        currency_for_symbol("#")
