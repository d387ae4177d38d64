"""KV caches of finished sequences, reused as the prefix of later prompts.

An agent's turn k+1 prompt is turn k's prompt + its completion + the new messages' tokens, so
the KV cache of turn k's sequence covers all but the new tokens: only those are prefilled. The
cache is keyed by token sequence; a prompt reuses the entry sharing its longest prefix (also a
partial one: sibling episodes with the same task prompt). Bounded in bytes, least recently used
evicted first; an entry that is a prefix of a newer one is dropped (the newer covers it). Only
valid for the weights that computed it: `reset(generation)` empties it when new weights were
published (served.py counts them).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .policy import Policy
from .running_batch import Prefix

#: default bound of the cache (--prefix-cache-mb)
DEFAULT_PREFIX_CACHE_MB = 256
#: entries at most: a lookup compares the prompt with each
MAX_ENTRIES = 512
#: shorter shared prefixes are not reused: they save next to nothing (a forward's fixed cost
#: dominates), and a chat template's first tokens are shared by every prompt, so two services
#: with other histories would otherwise differ in float rounding on unrelated prompts
MIN_REUSE = 32


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two token lists (slice comparisons run in C)."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    low, high = 0, n - 1  # a[:low] == b[:low] and a[:high + 1] != b[:high + 1]
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


class PrefixCache:
    def __init__(self, policy: Policy, max_bytes: int) -> None:
        self.policy = policy
        self.max_bytes = max_bytes if policy.slices_caches else 0
        self.generation: Optional[int] = None
        self._entries: "OrderedDict[Tuple[int, ...], Tuple[Any, int]]" = OrderedDict()
        self._bytes = 0
        #: lookups that reused a prefix / found none, and the prompt tokens reused / prefilled
        self.counts = {"hits": 0, "misses": 0, "reused_tokens": 0, "prefilled_tokens": 0}

    @property
    def enabled(self) -> bool:
        return self.max_bytes > 0

    def stats(self) -> Dict[str, int]:
        return dict(self.counts, entries=len(self._entries), bytes=self._bytes, max_bytes=self.max_bytes)

    def reset(self, generation: int) -> None:
        """Serves the `generation`-th published weights from now on: caches computed by others are dropped."""
        if generation != self.generation:
            self._entries.clear()
            self._bytes = 0
            self.generation = generation

    def lookup(self, prompt: List[int]) -> Optional[Prefix]:
        """The longest cached prefix of `prompt`, leaving at least its last token to compute (its
        logits are the first sample's)."""
        if not self.enabled:
            return None
        best, best_key = 0, None
        wanted = tuple(prompt)
        for key in self._entries:
            n = common_prefix(key, wanted)
            if n > best:
                best, best_key = n, key
        best = min(best, len(prompt) - 1)
        if best_key is None or best < MIN_REUSE:
            self.counts["misses"] += 1
            self.counts["prefilled_tokens"] += len(prompt)
            return None
        self._entries.move_to_end(best_key)
        self.counts["hits"] += 1
        self.counts["reused_tokens"] += best
        self.counts["prefilled_tokens"] += len(prompt) - best
        return Prefix(best, self.policy.slice_cache(self._entries[best_key][0], best))

    def store(self, tokens: List[int], cache: Any) -> None:
        """Keeps `cache` (KV of exactly `tokens`) as its own copy; evicts the least recently used to fit."""
        if not self.enabled or not tokens:
            return
        key = tuple(tokens)
        for old in [old for old in self._entries if len(old) <= len(key) and key[: len(old)] == old]:
            self._drop(old)
        own = self.policy.slice_cache(cache, len(key), copy=True)
        size = self.policy.cache_bytes(own)
        if size > self.max_bytes:
            return
        while self._entries and (self._bytes + size > self.max_bytes or len(self._entries) >= MAX_ENTRIES):
            self._drop(next(iter(self._entries)))
        self._entries[key] = (own, size)
        self._bytes += size

    def _drop(self, key: Tuple[int, ...]) -> None:
        _, size = self._entries.pop(key)
        self._bytes -= size
