"""Batched KV-cached decoding for the tiny model: one forward for the next token of many sequences.

Prompts are prefilled together (right-padded, in groups of bounded size), then the caches are
copied, left-padded to one length, into buffers with room to grow (BatchCache) and decoded
together: each step writes its keys into the next free column in place. Rotary positions are
applied per row at the row's own position and padded keys are masked out, so a row computes the
same attention as it would alone (up to float rounding: the padded softmax and matmuls sum over
more, zero, terms).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

import torch
from torch.nn import functional as F

from .tiny_model import Cache, TinyByteLM


@dataclass
class BatchCache:
    """Keys and values of the rows decoding together, in buffers allocated ahead and written in
    place: a decode step writes one column, so it costs no copy of the rows' keys (a concatenation
    per step copied all of them, and a join re-padded every row).

    Rows are right-aligned at column `end` (row b's keys are columns [end - lengths[b], end)) and
    live in slots 0..rows-1; slots and columns past those are free room. A state is consumed by
    `decode_batch` and `join` (their result shares and writes its buffers): use only what they
    return. `select_rows` copies the rows it keeps into new buffers, so the views `split_rows`
    gave out stay valid (a finished row's cache outlives the batch going on without it).
    """

    #: per layer: keys and values [slots, heads, capacity, head_dim]
    layers: List[Tuple[torch.Tensor, torch.Tensor]]
    #: [slots, capacity] true where a column is not one of the row's keys (padding or free room)
    pad: torch.Tensor
    #: each row's length so far: the position of its next token
    lengths: List[int]
    #: [rows] the same, as a tensor (the rotary positions of a decode step)
    positions: torch.Tensor
    #: the column the next decoded key goes to
    end: int

    @property
    def rows(self) -> int:
        return len(self.lengths)

    @property
    def start(self) -> int:
        """Columns before it are padding in every row: attention never reads them."""
        return self.end - max(self.lengths)

    @property
    def slots(self) -> int:
        return self.pad.shape[0]

    @property
    def capacity(self) -> int:
        return self.pad.shape[1]


#: columns (decode steps) a batch's buffers hold beyond its longest row, at least, when (re)allocated;
#: also half the longest row: each reallocation copies every row, so they grow geometrically
DECODE_ROOM = 128


#: padded tokens one batched forward may hold (a prompt group's rows x its longest prompt): the
#: attention scores of a query chunk grow with it, and a 10k-token prompt is then prefilled alone
PREFILL_TOKEN_BUDGET = 8192


#: padded tokens a group may hold per real token: on a compute-bound device a padded pass costs
#: its padding, so rows of unlike length are passed separately
MAX_PADDING_RATIO = 1.2


def token_groups(lengths: Sequence[int], budget: int = PREFILL_TOKEN_BUDGET) -> List[List[int]]:
    """Row indices grouped, longest first, such that rows x longest row stays within `budget` and
    within MAX_PADDING_RATIO x the group's real tokens (one row at least)."""
    groups: List[List[int]] = []
    longest = real = 0
    for index in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
        length = lengths[index]
        padded = (len(groups[-1]) + 1) * longest if groups else 0
        if groups and padded <= budget and padded <= MAX_PADDING_RATIO * (real + length):
            groups[-1].append(index)
            real += length
        else:
            groups.append([index])
            longest = real = length
    return groups


def prefill(model: TinyByteLM, prompts: Sequence[Sequence[int]], device: torch.device) -> Tuple[torch.Tensor, List[Cache]]:
    """Right-padded forwards over groups of prompts: causal attention keeps every real position
    from seeing the padding after it. Returns each prompt's next-token logits and its own cache."""
    logits: List[torch.Tensor] = [None] * len(prompts)  # type: ignore[list-item]
    caches: List[Cache] = [None] * len(prompts)  # type: ignore[list-item]
    for group in token_groups([len(p) for p in prompts]):
        width = max(len(prompts[i]) for i in group)
        ids = torch.zeros((len(group), width), dtype=torch.long, device=device)
        for row, i in enumerate(group):
            ids[row, : len(prompts[i])] = torch.tensor(list(prompts[i]), device=device)
        hidden, cache = model.hidden(ids)
        for row, i in enumerate(group):
            n = len(prompts[i])
            logits[i] = model.lm_head(hidden[row, n - 1])
            caches[i] = [(k[row : row + 1, :, :n], v[row : row + 1, :, :n]) for k, v in cache]
    return torch.stack(logits), caches


def _allocate(template: torch.Tensor, layers: int, slots: int, span: int) -> BatchCache:
    """Empty buffers for `slots` rows of up to `span` columns, plus room to decode into."""
    capacity = span + max(DECODE_ROOM, span // 2)
    shape = (slots, template.shape[1], capacity, template.shape[-1])
    buffers = [(template.new_zeros(shape), template.new_zeros(shape)) for _ in range(layers)]
    pad = torch.ones((slots, capacity), dtype=torch.bool, device=template.device)
    return BatchCache(buffers, pad, [], template.new_zeros((0,), dtype=torch.long), span)


def _place(cache: BatchCache, row: int, keys_values: Sequence[Tuple[torch.Tensor, torch.Tensor]], length: int) -> None:
    """Writes one row's keys and values ([n, heads, length, head_dim] per layer, n = 1 or the
    rows of a batch view) right-aligned at `cache.end`, into slots from `row` on."""
    n = keys_values[0][0].shape[0]
    begin = cache.end - length
    for (keys, values), (k, v) in zip(cache.layers, keys_values):
        keys[row : row + n, :, begin : cache.end] = k
        values[row : row + n, :, begin : cache.end] = v
    cache.pad[row : row + n, :begin] = True
    cache.pad[row : row + n, begin : cache.end] = False


def _rebuilt(cache: BatchCache, slots: int, span: int) -> BatchCache:
    """The same rows in new buffers of `slots` slots, right-aligned at column `span` (>= every row's length)."""
    keys = cache.layers[0][0]
    new = _allocate(keys, len(cache.layers), slots, span)
    if cache.rows:
        window = slice(cache.start, cache.end)
        width = window.stop - window.start
        for (keys, values), (k, v) in zip(new.layers, cache.layers):
            keys[: cache.rows, :, span - width : span] = k[: cache.rows, :, window]
            values[: cache.rows, :, span - width : span] = v[: cache.rows, :, window]
        new.pad[: cache.rows, span - width : span] = cache.pad[: cache.rows, window]
    new.lengths, new.positions = list(cache.lengths), cache.positions.clone()
    return new


def pad_caches(caches: Sequence[Cache]) -> BatchCache:
    """One batch of the per-sequence caches (each [1, heads, L_b, head_dim] per layer)."""
    lengths = [cache[0][0].shape[-2] for cache in caches]
    batch = _allocate(caches[0][0][0], len(caches[0]), len(caches), max(lengths))
    return join(batch, caches)


def join(cache: BatchCache, caches: Sequence[Cache]) -> BatchCache:
    """`cache` with the rows of `caches` after its own (continuous batching: rows join at any
    step). The running rows are copied only when the buffers lack slots or columns for the new ones."""
    lengths = [c[0][0].shape[-2] for c in caches]
    rows = cache.rows + len(caches)
    span = max([cache.end - cache.start if cache.rows else 0, *lengths])
    if rows > cache.slots or span > cache.end:
        cache = _rebuilt(cache, max(rows, 2 * cache.slots) if rows > cache.slots else cache.slots, span)
    for i, (c, length) in enumerate(zip(caches, lengths)):
        _place(cache, cache.rows + i, c, length)
    device = cache.pad.device
    return BatchCache(cache.layers, cache.pad, cache.lengths + lengths, torch.cat([cache.positions, torch.tensor(lengths, device=device)]), cache.end)


def split_rows(cache: BatchCache) -> List[Cache]:
    """Each row's own cache ([1, heads, L_b, head_dim] per layer, views without the padding): what
    `pad_caches` and `join` take, so rows can join a running batch (continuous batching) or be kept."""
    end = cache.end
    return [[(k[row : row + 1, :, end - n : end], v[row : row + 1, :, end - n : end]) for k, v in cache.layers] for row, n in enumerate(cache.lengths)]


def select_rows(cache: BatchCache, rows: Sequence[int]) -> BatchCache:
    """The rows still decoding, copied into new buffers (views of the old rows stay valid);
    columns that are padding in every remaining row are left out."""
    lengths = [cache.lengths[row] for row in rows]
    span = max(lengths)
    new = _allocate(cache.layers[0][0], len(cache.layers), cache.slots, span)
    index = torch.tensor(list(rows), device=cache.pad.device)
    window = slice(cache.end - span, cache.end)
    for (keys, values), (k, v) in zip(new.layers, cache.layers):
        keys[: len(rows), :, :span] = k[:, :, window].index_select(0, index)
        values[: len(rows), :, :span] = v[:, :, window].index_select(0, index)
    new.pad[: len(rows), :span] = cache.pad[:, window].index_select(0, index)
    new.lengths, new.positions = lengths, cache.positions.index_select(0, index)
    return new


_INVERSE_FREQUENCIES: Dict[Tuple[int, float, torch.device], torch.Tensor] = {}


def _rotary_angles(positions: torch.Tensor, d: int, base: float) -> Tuple[torch.Tensor, torch.Tensor]:
    """cos and sin [B, 1, 1, d/2] of one position per row (the same arithmetic as `_rotary`), once per step for every layer."""
    key = (d, base, positions.device)
    inv = _INVERSE_FREQUENCIES.get(key)
    if inv is None:
        inv = _INVERSE_FREQUENCIES[key] = 1.0 / (base ** (torch.arange(0, d, 2, device=positions.device, dtype=torch.float32) / d))
    angles = (positions.to(torch.float32)[:, None] * inv[None, :])[:, None, None, :]
    return angles.cos(), angles.sin()


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    cos, sin = cos.to(x.dtype), sin.to(x.dtype)
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


def decode_batch(model: TinyByteLM, tokens: torch.Tensor, cache: BatchCache) -> Tuple[torch.Tensor, BatchCache]:
    """Logits [B, V] after appending `tokens` ([B] ids) to each row, and the grown cache (the
    new keys written in place, into a column of free room)."""
    if cache.end == cache.capacity:
        cache = _rebuilt(cache, cache.slots, cache.end - cache.start)
    config = model.config
    batch, end = cache.rows, cache.end
    x = model.embed(tokens[:, None])
    cache.pad[:batch, end] = False
    window = slice(cache.start, end + 1)
    pad = cache.pad[:batch, None, None, window]
    cos, sin = _rotary_angles(cache.positions, config.d_model // config.n_heads, config.rope_base)
    for block, (keys, values) in zip(model.blocks, cache.layers):
        qkv = block.qkv(block.norm1(x)).view(batch, 1, 3, config.n_heads, -1).permute(2, 0, 3, 1, 4)
        (q, k), v = _rotate(qkv[:2], cos, sin), qkv[2]  # queries and keys rotated in one pass
        keys[:batch, :, end : end + 1] = k
        values[:batch, :, end : end + 1] = v
        scores = torch.matmul(q, keys[:batch, :, window].transpose(-1, -2)) / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(pad, float("-inf"))
        attended = torch.matmul(torch.softmax(scores, dim=-1), values[:batch, :, window])
        x = x + block.out(attended.transpose(1, 2).reshape(batch, 1, -1))
        x = x + block.fc2(F.gelu(block.fc1(block.norm2(x))))
    logits = model.lm_head(model.norm(x)[:, -1])
    return logits, BatchCache(cache.layers, cache.pad, [n + 1 for n in cache.lengths], cache.positions + 1, end + 1)
