import pytest

from pytext.slug import slugify, split_words, to_camel, to_kebab, to_snake, transliterate, unique_slug


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Hello, World!", "hello-world"),
        ("  spaces   everywhere  ", "spaces-everywhere"),
        ("Crème Brûlée", "creme-brulee"),
        ("Straße in Łódź", "strasse-in-lodz"),
        ("Salt & Pepper", "salt-and-pepper"),
        ("me@home", "me-at-home"),
        ("100% pure", "100-percent-pure"),
        ("C++ tips", "c-plus-plus-tips"),
        ("Ærø Øresund", "aero-oresund"),
        ("under_score and-dash", "under-score-and-dash"),
        ("Version 2.0.1", "version-2-0-1"),
        ("日本語 text", "text"),
    ],
)
def test_slugify(text, expected):
    assert slugify(text) == expected


def test_transliterate_keeps_ascii_and_drops_what_it_cannot_spell():
    assert transliterate("Ça va? naïve ﬁancé ✓") == "Ca va? naive fiance "


def test_custom_separator_and_case():
    assert slugify("Hello World", separator="_") == "hello_world"
    assert slugify("Hello World", lowercase=False) == "Hello-World"
    assert slugify("Hello World", separator="") == "helloworld"


def test_stopwords_are_dropped_case_insensitively():
    assert slugify("The Lord of the Rings", stopwords={"the", "of"}) == "lord-rings"


@pytest.mark.parametrize(
    "max_length, expected",
    [
        (100, "the-quick-brown-fox"),
        (19, "the-quick-brown-fox"),
        (18, "the-quick-brown"),
        (15, "the-quick-brown"),
        (14, "the-quick"),
        (3, "the"),
    ],
)
def test_max_length_keeps_whole_words(max_length, expected):
    assert slugify("The quick brown fox", max_length=max_length) == expected


def test_bad_arguments():
    with pytest.raises(TypeError, match="str"):
        slugify(42)
    with pytest.raises(ValueError, match="max_length"):
        slugify("x", max_length=0)


def test_unique_slug_numbers_duplicates():
    taken = {"report", "report-2"}
    assert unique_slug("Report", taken) == "report-3"
    assert unique_slug("Summary", taken) == "summary"


def test_unique_slug_makes_room_for_the_number():
    taken = {"quarterly", "quarterl-2"}
    assert unique_slug("Quarterly report", taken, max_length=10) == "quarterl-3"
    assert unique_slug("Big news", {"big-news", "big-new-2"}, max_length=9) == "big-new-3"
    assert unique_slug("ab cd", {"ab-cd"}, max_length=5) == "ab-2"


@pytest.mark.parametrize(
    "identifier, words",
    [
        ("parseHTTPResponse2", ["parse", "HTTP", "Response", "2"]),
        ("XMLHttpRequest", ["XML", "Http", "Request"]),
        ("userID", ["user", "ID"]),
        ("snake_case_name", ["snake", "case", "name"]),
        ("kebab-case-name", ["kebab", "case", "name"]),
        ("__dunder__", ["dunder"]),
        ("Title Case Words", ["Title", "Case", "Words"]),
        ("", []),
    ],
)
def test_split_words(identifier, words):
    assert split_words(identifier) == words


@pytest.mark.parametrize(
    "identifier, snake, kebab, camel",
    [
        ("parseHTTPResponse", "parse_http_response", "parse-http-response", "parseHttpResponse"),
        ("user_id", "user_id", "user-id", "userId"),
        ("Some Title", "some_title", "some-title", "someTitle"),
        ("already", "already", "already", "already"),
    ],
)
def test_case_conversions(identifier, snake, kebab, camel):
    assert to_snake(identifier) == snake
    assert to_kebab(identifier) == kebab
    assert to_camel(identifier) == camel


def test_to_camel_upper_first_and_empty():
    assert to_camel("http_server", upper_first=True) == "HttpServer"
    assert to_camel("") == ""
