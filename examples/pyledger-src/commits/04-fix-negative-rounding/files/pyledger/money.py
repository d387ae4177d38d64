"""Exact money arithmetic on Decimal, with parsing and formatting."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import (
    ROUND_CEILING,
    ROUND_DOWN,
    ROUND_FLOOR,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    ROUND_UP,
    Decimal,
    InvalidOperation,
)
from functools import total_ordering
from typing import Sequence, Union

from .currency import Currency, UnknownCurrencyError, all_currencies, currency_for_symbol, get_currency

AmountLike = Union[Decimal, int, str]

ROUNDING_MODES = {
    "half-up": ROUND_HALF_UP,
    "half-even": ROUND_HALF_EVEN,
    "up": ROUND_UP,
    "down": ROUND_DOWN,
    "ceiling": ROUND_CEILING,
    "floor": ROUND_FLOOR,
}

_DIGITS_RE = re.compile(r"^[0-9]+$")


class CurrencyMismatchError(ValueError):
    """Two amounts in different currencies were combined."""


class MoneyParseError(ValueError):
    """Text that is not a valid amount of money."""


def to_decimal(value: AmountLike) -> Decimal:
    """Accept int, str and Decimal; refuse float, whose binary value is never what was meant."""
    if isinstance(value, bool):
        raise TypeError("bool is not an amount")
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"amount must be finite, got {value}")
        return value
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, str):
        try:
            parsed = Decimal(value.strip())
        except InvalidOperation:
            raise ValueError(f"not a decimal number: {value!r}") from None
        return to_decimal(parsed)
    if isinstance(value, float):
        raise TypeError("float amounts are not accepted; pass a str or Decimal")
    raise TypeError(f"cannot use {type(value).__name__} as an amount")


def round_amount(value: Decimal, places: int, mode: str = "half-up") -> Decimal:
    """Round to ``places`` decimals. "half-up" is commercial rounding: ties move away from zero."""
    if places < 0:
        raise ValueError("places must be >= 0")
    try:
        rounding = ROUNDING_MODES[mode]
    except KeyError:
        raise ValueError(f"unknown rounding mode {mode!r}") from None
    return value.quantize(Decimal(1).scaleb(-places), rounding=rounding)


@total_ordering
@dataclass(frozen=True)
class Money:
    """An amount in one currency, always held at the currency's precision."""

    amount: Decimal
    currency: Currency

    def __post_init__(self) -> None:
        currency = get_currency(self.currency)
        amount = round_amount(to_decimal(self.amount), currency.minor_units)
        object.__setattr__(self, "currency", currency)
        object.__setattr__(self, "amount", amount)

    @classmethod
    def of(cls, amount: AmountLike, currency: str | Currency = "USD") -> Money:
        return cls(to_decimal(amount), get_currency(currency))

    @classmethod
    def zero(cls, currency: str | Currency = "USD") -> Money:
        return cls(Decimal(0), get_currency(currency))

    @property
    def minor_units(self) -> int:
        """The amount in minor units (cents), e.g. 1234 for $12.34."""
        return int(self.amount.scaleb(self.currency.minor_units))

    def _same_currency(self, other: object) -> Money:
        if not isinstance(other, Money):
            raise TypeError(f"expected Money, got {type(other).__name__}")
        if other.currency != self.currency:
            raise CurrencyMismatchError(
                f"cannot combine {self.currency.code} with {other.currency.code}"
            )
        return other

    def __add__(self, other: object) -> Money:
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self  # lets sum() start from its default 0
        return Money(self.amount + self._same_currency(other).amount, self.currency)

    __radd__ = __add__

    def __sub__(self, other: object) -> Money:
        return Money(self.amount - self._same_currency(other).amount, self.currency)

    def __neg__(self) -> Money:
        return Money(-self.amount, self.currency)

    def __abs__(self) -> Money:
        return Money(abs(self.amount), self.currency)

    def __mul__(self, factor: AmountLike) -> Money:
        if isinstance(factor, Money):
            raise TypeError("cannot multiply money by money")
        return Money(self.amount * to_decimal(factor), self.currency)

    __rmul__ = __mul__

    def __lt__(self, other: object) -> bool:
        return self.amount < self._same_currency(other).amount

    def is_zero(self) -> bool:
        return self.amount == 0

    def is_positive(self) -> bool:
        return self.amount > 0

    def is_negative(self) -> bool:
        return self.amount < 0

    def allocate(self, ratios: Sequence[AmountLike]) -> list[Money]:
        """Split by ratios without losing a cent: leftover minor units go to the parts
        with the largest remainders, ties to the earlier part."""
        weights = [to_decimal(ratio) for ratio in ratios]
        if not weights:
            raise ValueError("at least one ratio is required")
        if any(weight < 0 for weight in weights):
            raise ValueError("ratios must not be negative")
        total = sum(weights, Decimal(0))
        if total == 0:
            raise ValueError("ratios must not all be zero")
        units = self.minor_units
        shares = [Decimal(units) * weight / total for weight in weights]
        parts = [int(share) for share in shares]  # int() truncates toward zero, credits too
        remainder = units - sum(parts)
        step = 1 if remainder > 0 else -1
        order = sorted(range(len(shares)), key=lambda i: (-abs(shares[i] - parts[i]), i))
        for index in order[: abs(remainder)]:
            parts[index] += step
        quantum = self.currency.quantum
        return [Money(Decimal(part) * quantum, self.currency) for part in parts]

    def split(self, count: int) -> list[Money]:
        """Split into ``count`` near-equal parts that add up to this amount."""
        if count < 1:
            raise ValueError("count must be at least 1")
        return self.allocate([1] * count)

    def __str__(self) -> str:
        return format_money(self)


def group_digits(digits: str, separator: str) -> str:
    """'1234567' -> '1,234,567'."""
    if not separator or len(digits) <= 3:
        return digits
    head = len(digits) % 3 or 3
    groups = [digits[:head]]
    for start in range(head, len(digits), 3):
        groups.append(digits[start : start + 3])
    return separator.join(groups)


def format_money(
    money: Money,
    *,
    symbol: bool = True,
    thousands_sep: str = ",",
    decimal_sep: str = ".",
    accounting: bool = False,
) -> str:
    """'$1,234.56'; '-$5.00' or, with ``accounting``, '($5.00)'; without a symbol '5.00 CHF'."""
    digits = format(abs(money.amount), "f")
    whole, _, fraction = digits.partition(".")
    number = group_digits(whole, thousands_sep)
    if fraction:
        number += decimal_sep + fraction
    currency = money.currency
    body = currency.symbol + number if symbol and currency.symbol else f"{number} {currency.code}"
    if money.is_negative():
        return f"({body})" if accounting else "-" + body
    return body


def _take_currency(text: str) -> tuple[Currency | None, str]:
    tokens = text.split()
    if len(tokens) >= 2:
        for token, rest in ((tokens[0], text[len(tokens[0]) :]), (tokens[-1], text[: -len(tokens[-1])])):
            if len(token) == 3 and token.isalpha():
                try:
                    return get_currency(token), rest.strip()
                except UnknownCurrencyError:
                    raise MoneyParseError(f"unknown currency code {token!r}") from None
    symbols = sorted({c.symbol for c in all_currencies() if c.symbol}, key=len, reverse=True)
    for sym in symbols:
        if text.startswith(sym):
            return currency_for_symbol(sym), text[len(sym) :].strip()
        if text.endswith(sym):
            return currency_for_symbol(sym), text[: -len(sym)].strip()
    return None, text


def _parse_number(text: str, decimal_sep: str, thousands_sep: str, original: str) -> Decimal:
    if not text:
        raise MoneyParseError(f"no amount in {original!r}")
    whole, sep, fraction = text.partition(decimal_sep)
    if sep and not _DIGITS_RE.match(fraction):
        raise MoneyParseError(f"bad decimals in {original!r}")
    if thousands_sep and thousands_sep in whole:
        groups = whole.split(thousands_sep)
        if not 1 <= len(groups[0]) <= 3 or any(len(group) != 3 for group in groups[1:]):
            raise MoneyParseError(f"misplaced thousands separator in {original!r}")
        whole = "".join(groups)
    if not whole and sep:
        whole = "0"  # ".50"
    if not _DIGITS_RE.match(whole):
        raise MoneyParseError(f"not an amount: {original!r}")
    return Decimal(whole + ("." + fraction if sep else ""))


def parse_money(
    text: str,
    currency: str | Currency | None = None,
    *,
    decimal_sep: str = ".",
    thousands_sep: str = ",",
    allow_rounding: bool = False,
) -> Money:
    """Parse '$1,234.56', 'EUR 12.50', '12.50 EUR', '-£3', '($5.00)'.

    ``currency`` is the default when the text names none; if both name one they must agree.
    More decimals than the currency has are an error unless ``allow_rounding``.
    """
    if decimal_sep == thousands_sep:
        raise ValueError("decimal and thousands separators must differ")
    rest = text.strip()
    negative = False
    if rest.startswith("(") and rest.endswith(")"):
        negative = True
        rest = rest[1:-1].strip()
    if rest.startswith(("-", "+")):
        if negative:
            raise MoneyParseError(f"sign inside accounting parentheses: {text!r}")
        negative = rest[0] == "-"
        rest = rest[1:].lstrip()
    found, rest = _take_currency(rest)
    if found is None:
        if currency is None:
            raise MoneyParseError(f"no currency in {text!r} and no default given")
        found = get_currency(currency)
    elif currency is not None and get_currency(currency) != found:
        raise MoneyParseError(f"{text!r} is in {found.code}, expected {get_currency(currency).code}")
    number = _parse_number(rest, decimal_sep, thousands_sep, text)
    if -number.as_tuple().exponent > found.minor_units and not allow_rounding:
        raise MoneyParseError(f"{text!r} has more decimals than {found.code} allows")
    return Money(-number if negative else number, found)
