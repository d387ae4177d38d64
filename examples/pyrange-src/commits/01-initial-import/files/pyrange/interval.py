"""The half-open interval [start, end)."""


class Interval:
    """The numbers x with start <= x < end. An interval with start == end is empty."""

    __slots__ = ("start", "end")

    def __init__(self, start, end):
        if end < start:
            raise ValueError(f"interval end {end} is before its start {start}")
        self.start = start
        self.end = end

    def __repr__(self):
        return f"Interval({self.start!r}, {self.end!r})"

    def __eq__(self, other):
        if not isinstance(other, Interval):
            return NotImplemented
        return (self.start, self.end) == (other.start, other.end)

    def __hash__(self):
        return hash((self.start, self.end))

    @property
    def length(self):
        return self.end - self.start

    def is_empty(self):
        return self.start == self.end

    def contains(self, value):
        return self.start <= value < self.end

    def overlaps(self, other):
        return self.start <= other.end and other.start <= self.end

    def intersection(self, other):
        """The common part, or None when the intervals do not overlap."""
        if not self.overlaps(other):
            return None
        return Interval(max(self.start, other.start), min(self.end, other.end))

    def hull(self, other):
        """The smallest interval that holds both."""
        return Interval(min(self.start, other.start), max(self.end, other.end))
