import pytest

from pytext.distance import closest, common_prefix, damerau_levenshtein, hamming, levenshtein, similarity


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("", "", 0),
        ("abc", "", 3),
        ("", "abc", 3),
        ("kitten", "sitting", 3),
        ("flaw", "lawn", 2),
        ("saturday", "sunday", 3),
        ("gumbo", "gambol", 2),
        ("book", "back", 2),
        ("same", "same", 0),
        ("abcdef", "azced", 3),
        ("intention", "execution", 5),
    ],
)
def test_levenshtein(a, b, expected):
    assert levenshtein(a, b) == expected
    assert levenshtein(b, a) == expected


def test_levenshtein_of_lists():
    assert levenshtein(["a", "b", "c"], ["a", "c"]) == 1
    assert levenshtein((1, 2, 3), (3, 2, 1)) == 2


@pytest.mark.parametrize(
    "a, b, max_distance, expected",
    [
        ("kitten", "sitting", 3, 3),
        ("kitten", "sitting", 2, 3),
        ("kitten", "sitting", 0, 1),
        ("a", "abcdefgh", 2, 3),
        ("same", "same", 0, 0),
        ("abcdefgh", "hgfedcba", 5, 6),
    ],
)
def test_levenshtein_max_distance_caps_the_result(a, b, max_distance, expected):
    assert levenshtein(a, b, max_distance=max_distance) == expected


def test_levenshtein_refuses_a_negative_cap():
    with pytest.raises(ValueError):
        levenshtein("a", "b", max_distance=-1)


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("ca", "ac", 1),
        ("abcd", "acbd", 1),
        ("kitten", "sitting", 3),
        ("ca", "abc", 3),
        ("", "ab", 2),
        ("teh", "the", 1),
    ],
)
def test_damerau_levenshtein_counts_swaps_once(a, b, expected):
    assert damerau_levenshtein(a, b) == expected


def test_hamming():
    assert hamming("karolin", "kathrin") == 3
    assert hamming("", "") == 0
    with pytest.raises(ValueError, match="equal length"):
        hamming("ab", "abc")


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("", "", 1.0),
        ("abc", "abc", 1.0),
        ("abc", "xyz", 0.0),
        ("abcd", "abce", 0.75),
        ("", "ab", 0.0),
    ],
)
def test_similarity(a, b, expected):
    assert similarity(a, b) == pytest.approx(expected)


def test_closest_orders_by_similarity_then_input_order():
    words = ["apple", "ample", "apply", "maple", "apples", "banana"]
    assert closest("appel", words) == ["apples", "apple", "apply"]
    assert closest("appel", words, limit=1) == ["apples"]
    assert closest("appel", words, cutoff=0.4, limit=5) == ["apples", "apple", "apply", "ample", "maple"]
    assert closest("zzz", words) == []


def test_closest_cutoff_and_arguments():
    assert closest("apple", ["apple", "apples", "ape"], cutoff=0.8) == ["apple", "apples"]
    with pytest.raises(ValueError):
        closest("a", ["a"], limit=0)
    with pytest.raises(ValueError):
        closest("a", ["a"], cutoff=1.5)


@pytest.mark.parametrize(
    "strings, expected",
    [
        (["interspecies", "interstellar", "interstate"], "inters"),
        (["dog", "racecar"], ""),
        (["alone"], "alone"),
        ([], ""),
        (["ab", "abc", "a"], "a"),
    ],
)
def test_common_prefix(strings, expected):
    assert common_prefix(strings) == expected
