"""Currencies: ISO 4217 codes, minor units and display symbols.

A small registry ships with common currencies. Applications may register their
own (loyalty points, an internal token) at start-up with :func:`register`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

_CODE_RE = re.compile(r"^[A-Z]{3}$")
MAX_MINOR_UNITS = 8


class UnknownCurrencyError(KeyError):
    """A currency code or symbol that is not registered."""

    def __str__(self) -> str:
        # KeyError would repr() its argument; callers show this message to users.
        return str(self.args[0]) if self.args else "unknown currency"


@dataclass(frozen=True)
class Currency:
    """An ISO currency: ``minor_units`` is the number of decimal places."""

    code: str
    minor_units: int
    symbol: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        if not _CODE_RE.match(self.code):
            raise ValueError(f"currency code must be three upper-case letters, got {self.code!r}")
        if not 0 <= self.minor_units <= MAX_MINOR_UNITS:
            raise ValueError(
                f"minor units must be between 0 and {MAX_MINOR_UNITS}, got {self.minor_units}"
            )

    @property
    def quantum(self) -> Decimal:
        """The smallest representable amount, e.g. ``Decimal('0.01')`` for USD."""
        return Decimal(1).scaleb(-self.minor_units)

    @property
    def display_symbol(self) -> str:
        return self.symbol or self.code

    def __str__(self) -> str:
        return self.code


_REGISTRY: dict[str, Currency] = {}


def register(currency: Currency, *, replace: bool = False) -> Currency:
    """Add a currency to the registry; re-registering an identical one is a no-op."""
    existing = _REGISTRY.get(currency.code)
    if existing is not None and existing != currency and not replace:
        raise ValueError(f"currency {currency.code} is already registered")
    _REGISTRY[currency.code] = currency
    return currency


def get_currency(code: str | Currency) -> Currency:
    """Look a currency up by code (case-insensitive); a Currency is returned as is."""
    if isinstance(code, Currency):
        return code
    key = code.strip().upper()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise UnknownCurrencyError(f"unknown currency {code!r}") from None


def all_currencies() -> list[Currency]:
    """Registered currencies in registration order."""
    return list(_REGISTRY.values())


def known_codes() -> list[str]:
    return sorted(_REGISTRY)


def currency_for_symbol(symbol: str) -> Currency:
    """The currency a symbol stands for; when several share one, the first registered wins."""
    for currency in _REGISTRY.values():
        if currency.symbol == symbol:
            return currency
    raise UnknownCurrencyError(f"no currency uses the symbol {symbol!r}")


for _currency in (
    Currency("USD", 2, "$", "US dollar"),
    Currency("EUR", 2, "€", "Euro"),
    Currency("GBP", 2, "£", "Pound sterling"),
    Currency("JPY", 0, "¥", "Japanese yen"),
    Currency("CAD", 2, "CA$", "Canadian dollar"),
    Currency("CHF", 2, "", "Swiss franc"),
    Currency("KWD", 3, "", "Kuwaiti dinar"),
):
    register(_currency)
