"""Slugs and identifier case conversion.

slugify() turns any text into a URL-safe ASCII slug. split_words() breaks identifiers
written in camelCase, PascalCase, snake_case or kebab-case into words, and to_snake(),
to_kebab() and to_camel() join them again in another style.
"""

import re
import unicodedata

# Letters that NFKD does not decompose into an ASCII base letter plus accents.
_SPECIAL_LETTERS = {
    "ß": "ss",
    "æ": "ae",
    "Æ": "AE",
    "œ": "oe",
    "Œ": "OE",
    "ø": "o",
    "Ø": "O",
    "đ": "d",
    "Đ": "D",
    "ł": "l",
    "Ł": "L",
    "þ": "th",
    "Þ": "TH",
    "ð": "d",
    "Ð": "D",
}

# Symbols that carry meaning in titles ("Salt & Pepper") and are spelt out, not dropped.
_SYMBOL_WORDS = {"&": " and ", "@": " at ", "%": " percent ", "+": " plus "}

_WORD = re.compile(r"[A-Za-z0-9]+")
_IDENTIFIER_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_IDENTIFIER_SEPARATORS = re.compile(r"[\s_\-.]+")


def transliterate(text):
    """Return `text` in ASCII: accents stripped, special letters spelt out, the rest dropped."""
    out = []
    for char in text:
        if char in _SPECIAL_LETTERS:
            out.append(_SPECIAL_LETTERS[char])
            continue
        decomposed = unicodedata.normalize("NFKD", char)
        out.append("".join(c for c in decomposed if not unicodedata.combining(c)))
    return "".join(out).encode("ascii", "ignore").decode("ascii")


def slugify(text, separator="-", max_length=None, lowercase=True, stopwords=()):
    """Turn `text` into a slug: ASCII letters and digits joined by `separator`.

    `stopwords` are dropped (case-insensitively) unless that would leave nothing. With
    `max_length`, whole words are kept while they fit; a first word longer than the
    limit is cut.
    """
    if not isinstance(text, str):
        raise TypeError(f"slugify() needs a str, not {type(text).__name__}")
    if max_length is not None and max_length < 1:
        raise ValueError("max_length must be at least 1")
    for symbol, word in _SYMBOL_WORDS.items():
        text = text.replace(symbol, word)
    words = _WORD.findall(transliterate(text))
    if stopwords:
        stop = {word.lower() for word in stopwords}
        words = [word for word in words if word.lower() not in stop] or words
    if lowercase:
        words = [word.lower() for word in words]
    slug = separator.join(words)
    if max_length is not None and len(slug) > max_length:
        slug = _truncate_words(words, separator, max_length)
    return slug


def _truncate_words(words, separator, max_length):
    kept = []
    length = 0
    for word in words:
        extra = len(word) + (len(separator) if kept else 0)
        if length + extra > max_length:
            break
        kept.append(word)
        length += extra
    if not kept:
        return words[0][:max_length]
    return separator.join(kept)


def unique_slug(text, taken, separator="-", max_length=None, **options):
    """slugify(text), numbered "-2", "-3", ... until it is not in `taken`.

    With `max_length` the base is shortened to leave room for the number.
    """
    base = slugify(text, separator=separator, max_length=max_length, **options)
    if base not in taken:
        return base
    number = 2
    while True:
        suffix = f"{separator}{number}"
        stem = base
        if max_length is not None and len(stem) + len(suffix) > max_length:
            stem = stem[: max(max_length - len(suffix), 0)]
            if separator:
                stem = stem.rstrip(separator)
        candidate = stem + suffix
        if candidate not in taken:
            return candidate
        number += 1


def split_words(identifier):
    """Words of an identifier: "parseHTTPResponse2" -> ["parse", "HTTP", "Response", "2"]."""
    words = []
    for chunk in _IDENTIFIER_SEPARATORS.split(identifier):
        words.extend(_IDENTIFIER_PART.findall(chunk))
    return words


def to_snake(identifier):
    """"parseHTTPResponse" -> "parse_http_response"."""
    return "_".join(word.lower() for word in split_words(identifier))


def to_kebab(identifier):
    """"parseHTTPResponse" -> "parse-http-response"."""
    return "-".join(word.lower() for word in split_words(identifier))


def to_camel(identifier, upper_first=False):
    """"parse_http_response" -> "parseHttpResponse" ("ParseHttpResponse" with upper_first)."""
    words = split_words(identifier)
    if not words:
        return ""
    first = words[0].capitalize() if upper_first else words[0].lower()
    return first + "".join(word.capitalize() for word in words[1:])
