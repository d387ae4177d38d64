import pytest

from pyrange import Interval


def test_length():
    assert Interval(2, 7).length == 5


def test_empty_interval():
    assert Interval(3, 3).is_empty()
    assert not Interval(3, 4).is_empty()


def test_end_before_start_is_refused():
    with pytest.raises(ValueError):
        Interval(5, 1)


@pytest.mark.parametrize("value, inside", [(0, True), (4, True), (5, False), (-1, False)])
def test_contains_is_half_open(value, inside):
    assert Interval(0, 5).contains(value) is inside


def test_overlapping_intervals():
    assert Interval(0, 5).overlaps(Interval(3, 8))
    assert Interval(3, 8).overlaps(Interval(0, 5))


def test_intersection():
    assert Interval(0, 5).intersection(Interval(3, 8)) == Interval(3, 5)


def test_disjoint_intervals_have_no_intersection():
    assert Interval(0, 2).intersection(Interval(4, 6)) is None


def test_hull():
    assert Interval(0, 2).hull(Interval(4, 6)) == Interval(0, 6)


def test_equal_intervals_hash_alike():
    assert len({Interval(1, 2), Interval(1, 2)}) == 1


def test_touching_intervals_do_not_overlap():
    assert not Interval(0, 5).overlaps(Interval(5, 8))
    assert not Interval(5, 8).overlaps(Interval(0, 5))


def test_touching_intervals_have_no_intersection():
    assert Interval(0, 5).intersection(Interval(5, 8)) is None
