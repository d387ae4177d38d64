import pytest

from pytext.tokens import Token, ngrams, sentences, title_case, tokenize, word_count, word_frequencies, words


def kinds(text):
    return [(token.kind, token.text) for token in tokenize(text)]


def test_tokens_keep_their_offsets():
    text = "Hi, Bob!"
    assert tokenize(text) == [
        Token("word", "Hi", 0, 2),
        Token("punct", ",", 2, 3),
        Token("word", "Bob", 4, 7),
        Token("punct", "!", 7, 8),
    ]
    for token in tokenize("Some text, with 3.5 things (and more)."):
        assert token.text == "Some text, with 3.5 things (and more)."[token.start : token.end]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("don't stop", [("word", "don't"), ("word", "stop")]),
        ("well-known fact", [("word", "well-known"), ("word", "fact")]),
        ("pay 1,234.50 now", [("word", "pay"), ("number", "1,234.50"), ("word", "now")]),
        ("up 12% today", [("word", "up"), ("number", "12%"), ("word", "today")]),
        ("see https://example.org/a?b=1.", [("word", "see"), ("url", "https://example.org/a?b=1"), ("punct", ".")]),
        ("mail ada@example.co.uk,", [("word", "mail"), ("email", "ada@example.co.uk"), ("punct", ",")]),
        ("R2D2 and C-3PO", [("word", "R2D2"), ("word", "and"), ("word", "C-3PO")]),
        ("naïve café", [("word", "naïve"), ("word", "café")]),
        ("a_b __", [("word", "a_b"), ("punct", "_"), ("punct", "_")]),
        ("", []),
    ],
)
def test_token_kinds(text, expected):
    assert kinds(text) == expected


def test_words_and_count():
    text = "The cat, the hat - and 2 bats."
    assert words(text) == ["The", "cat", "the", "hat", "and", "bats"]
    assert words(text, lowercase=True)[0] == "the"
    assert word_count(text) == 6
    assert word_count("   ") == 0


@pytest.mark.parametrize(
    "text, expected",
    [
        ("One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]),
        ("Hello there.  ", ["Hello there."]),
        ("Dr. Smith arrived. He sat.", ["Dr. Smith arrived.", "He sat."]),
        ("J. R. R. Tolkien wrote it. Yes.", ["J. R. R. Tolkien wrote it.", "Yes."]),
        ("Bring fruit, e.g. apples. Thanks.", ["Bring fruit, e.g. apples.", "Thanks."]),
        ('He said "Stop." Then left.', ['He said "Stop."', "Then left."]),
        ("Wait... what? Really!", ["Wait... what?", "Really!"]),
        ("It costs 3.50 today. Ok.", ["It costs 3.50 today.", "Ok."]),
        ("Really?! Yes.", ["Really?!", "Yes."]),
        ("", []),
        ("   ", []),
    ],
)
def test_sentences(text, expected):
    assert sentences(text) == expected


@pytest.mark.parametrize(
    "items, n, expected",
    [
        ("abc", 2, [("a", "b"), ("b", "c")]),
        ("abc", 3, [("a", "b", "c")]),
        ("abc", 4, []),
        ("abc", 1, [("a",), ("b",), ("c",)]),
        ([], 2, []),
        (["to", "be", "or", "not"], 2, [("to", "be"), ("be", "or"), ("or", "not")]),
    ],
)
def test_ngrams(items, n, expected):
    assert ngrams(items, n) == expected


def test_ngrams_needs_a_positive_n():
    with pytest.raises(ValueError):
        ngrams("abc", 0)


def test_word_frequencies():
    text = "the cat and the hat and the bat"
    assert word_frequencies(text) == [("the", 3), ("and", 2), ("cat", 1), ("hat", 1), ("bat", 1)]
    assert word_frequencies(text, stopwords={"the", "AND"}) == [("cat", 1), ("hat", 1), ("bat", 1)]
    assert word_frequencies(text, limit=2) == [("the", 3), ("and", 2)]
    assert word_frequencies("") == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("the lord of the rings", "The Lord of the Rings"),
        ("a tale of two cities", "A Tale of Two Cities"),
        ("what it is for", "What It Is For"),
        ("THE END OF the road", "THE END OF the Road"),
        ("my iPhone and the NASA rover", "My iPhone and the NASA Rover"),
        ("  spaced   out, aren't we?  ", "  Spaced   Out, Aren't We?  "),
        ("of", "Of"),
        ("", ""),
    ],
)
def test_title_case(text, expected):
    assert title_case(text) == expected
