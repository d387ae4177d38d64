"""Tokens, words and sentences: a tokenizer that keeps offsets, a sentence splitter that
knows common abbreviations, n-grams, word frequencies and title case.
"""

import re
from collections import namedtuple

Token = namedtuple("Token", "kind text start end")
Token.__doc__ = """A token of kind "url", "email", "number", "word" or "punct" at text[start:end]."""

_TOKEN = re.compile(
    r"""
    (?P<url>https?://[^\s<>"]*[^\s<>".,;:!?)\]'])
  | (?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)
  | (?P<number>\d+(?:[.,]\d+)*%?)
  | (?P<word>[^\W\d_]\w*(?:['’-]\w+)*)
  | (?P<punct>\S)
    """,
    re.X,
)
_SENTENCE_END = re.compile(r"""([.!?]+)(["')\]]*)\s+""")
ABBREVIATIONS = frozenset(
    ["mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "no", "fig", "inc", "ltd", "approx"]
)
SMALL_WORDS = frozenset(["a", "an", "and", "as", "at", "but", "by", "for", "in", "nor", "of", "on", "or", "the", "to", "with"])


def tokenize(text):
    """Every token of `text`, in order; whitespace separates tokens and is not one."""
    return [Token(match.lastgroup, match.group(), match.start(), match.end()) for match in _TOKEN.finditer(text)]


def words(text, lowercase=False):
    """The word tokens of `text` (numbers, URLs and punctuation left out)."""
    found = [token.text for token in tokenize(text) if token.kind == "word"]
    return [word.lower() for word in found] if lowercase else found


def word_count(text):
    return len(words(text))


def sentences(text):
    """Split `text` after ".", "!" or "?" (and closing quotes) followed by whitespace.

    No split after an abbreviation ("Dr."), an initial ("J. Smith") or before a
    lowercase letter. Sentences come back stripped; blank ones are dropped.
    """
    found = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        before = text[start : match.start()].split()
        last_word = before[-1].lower() if before else ""
        following = text[match.end() : match.end() + 1]
        if match.group(1) == "." and (last_word in ABBREVIATIONS or (len(last_word) == 1 and last_word.isalpha())):
            continue
        if following.islower():
            continue
        found.append(text[start : match.end()].strip())
        start = match.end()
    rest = text[start:].strip()
    if rest:
        found.append(rest)
    return [sentence for sentence in found if sentence]


def ngrams(items, n):
    """The runs of `n` consecutive items, as tuples: ngrams("abc", 2) == [("a", "b"), ("b", "c")]."""
    if n < 1:
        raise ValueError("n must be at least 1")
    items = list(items)
    return [tuple(items[index : index + n]) for index in range(len(items) - n + 1)]


def word_frequencies(text, stopwords=(), limit=None):
    """(word, count) pairs, lowercased, most frequent first; ties in order of first use."""
    stop = {word.lower() for word in stopwords}
    counts = {}
    for word in words(text, lowercase=True):
        if word not in stop:
            counts[word] = counts.get(word, 0) + 1
    ranked = sorted(counts.items(), key=lambda pair: -pair[1])
    return ranked if limit is None else ranked[:limit]


def title_case(text, small_words=SMALL_WORDS):
    """Capitalise words, except small words that are neither first nor last.

    Words with a capital after their first letter ("iPhone", "NASA") are left alone.
    """
    tokens = [token for token in tokenize(text) if token.kind == "word"]
    out = []
    position = 0
    for index, token in enumerate(tokens):
        word = token.text
        if any(char.isupper() for char in word[1:]):
            replacement = word
        elif 0 < index < len(tokens) - 1 and word.lower() in small_words:
            replacement = word.lower()
        else:
            replacement = word[0].upper() + word[1:].lower()
        out.append(text[position : token.start])
        out.append(replacement)
        position = token.end
    out.append(text[position:])
    return "".join(out)
