"""Edit distances between strings (or any sequences) and fuzzy matching."""


def levenshtein(a, b, max_distance=None):
    """The fewest single-item insertions, deletions and substitutions turning `a` into `b`.

    With `max_distance`, any distance above it is reported as `max_distance + 1`.
    """
    if max_distance is not None and max_distance < 0:
        raise ValueError("max_distance must not be negative")
    rows = len(a) + 1
    cols = len(b) + 1
    table = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        table[i][0] = i
    for j in range(cols):
        table[0][j] = j
    for i in range(1, rows):
        for j in range(1, cols):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
    return _capped(table[-1][-1], max_distance)


def _capped(distance, max_distance):
    if max_distance is not None and distance > max_distance:
        return max_distance + 1
    return distance


def damerau_levenshtein(a, b):
    """Like levenshtein(), but swapping two adjacent items is one edit (optimal string alignment)."""
    rows = len(a) + 1
    cols = len(b) + 1
    table = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        table[i][0] = i
    for j in range(cols):
        table[0][j] = j
    for i in range(1, rows):
        for j in range(1, cols):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
    return table[-1][-1]


def hamming(a, b):
    """The number of positions at which two equally long sequences differ."""
    if len(a) != len(b):
        raise ValueError(f"hamming() needs sequences of equal length, not {len(a)} and {len(b)}")
    return sum(1 for x, y in zip(a, b) if x != y)


def similarity(a, b):
    """1.0 for equal sequences down to 0.0 for nothing in common: 1 - distance / longer length."""
    longest = max(len(a), len(b))
    if longest == 0:
        return 1.0
    return 1.0 - levenshtein(a, b) / longest


def closest(word, candidates, limit=3, cutoff=0.6):
    """Up to `limit` candidates at least `cutoff` similar to `word`, most similar first.

    Ties keep the order of `candidates`.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if not 0.0 <= cutoff <= 1.0:
        raise ValueError("cutoff must be between 0 and 1")
    scored = []
    for position, candidate in enumerate(candidates):
        score = similarity(word, candidate)
        if score >= cutoff:
            scored.append((-score, position, candidate))
    scored.sort()
    return [candidate for _, _, candidate in scored[:limit]]


def common_prefix(strings):
    """The longest prefix shared by all `strings` ("" for none)."""
    strings = list(strings)
    if not strings:
        return ""
    shortest = min(strings, key=len)
    for index, char in enumerate(shortest):
        if any(other[index] != char for other in strings):
            return shortest[:index]
    return shortest
