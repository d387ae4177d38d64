"""Batched KV-cached decoding for the tiny model: one forward for the next token of many sequences.

Prompts are prefilled together (right-padded, in groups of bounded size), then the caches are
left-padded to one length and decoded together. Rotary positions are applied per row at the
row's own position and padded keys are masked out, so a row computes the same attention as it
would alone (up to float rounding: the padded softmax and matmuls sum over more, zero, terms).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Sequence, Tuple

import torch
from torch.nn import functional as F

from .tiny_model import Cache, TinyByteLM


@dataclass
class BatchCache:
    #: per layer: keys and values [B, heads, L, head_dim], left-padded
    layers: List[Tuple[torch.Tensor, torch.Tensor]]
    #: [B, L] true where the key is padding
    pad: torch.Tensor
    #: [B] the position of each row's next token (its real length so far)
    positions: torch.Tensor


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


def pad_caches(caches: Sequence[Cache]) -> BatchCache:
    """Stacks per-sequence caches (each [1, heads, L_b, head_dim] per layer) into one left-padded batch."""
    lengths = [cache[0][0].shape[-2] for cache in caches]
    longest = max(lengths)
    layers = []
    for layer in range(len(caches[0])):
        keys, values = [], []
        for cache, length in zip(caches, lengths):
            k, v = cache[layer]
            fill = k.new_zeros(k.shape[:-2] + (longest - length, k.shape[-1]))
            keys.append(torch.cat([fill, k], dim=-2))
            values.append(torch.cat([fill, v], dim=-2))
        layers.append((torch.cat(keys), torch.cat(values)))
    device = caches[0][0][0].device
    pad = torch.arange(longest, device=device)[None, :] < torch.tensor([longest - n for n in lengths], device=device)[:, None]
    return BatchCache(layers, pad, torch.tensor(lengths, device=device))


def split_rows(cache: BatchCache) -> List[Cache]:
    """Each row's own cache ([1, heads, L_b, head_dim] per layer, views without the padding): what
    `pad_caches` takes, so rows can join a running batch (continuous batching) or be kept."""
    longest = cache.pad.shape[1]
    starts = [longest - int(n) for n in cache.positions.tolist()]
    return [[(k[row : row + 1, :, start:], v[row : row + 1, :, start:]) for k, v in cache.layers] for row, start in enumerate(starts)]


def select_rows(cache: BatchCache, rows: Sequence[int]) -> BatchCache:
    """The rows still decoding; columns that are padding in every remaining row are cut off."""
    index = torch.tensor(list(rows), device=cache.pad.device)
    pad = cache.pad.index_select(0, index)
    cut = int(pad.all(dim=0).long().cumprod(0).sum())  # leading all-padding columns
    layers = [(k.index_select(0, index)[..., cut:, :], v.index_select(0, index)[..., cut:, :]) for k, v in cache.layers]
    return BatchCache(layers, pad[:, cut:], cache.positions.index_select(0, index))


def _rotary_angles(positions: torch.Tensor, d: int, base: float) -> Tuple[torch.Tensor, torch.Tensor]:
    """cos and sin [B, 1, 1, d/2] of one position per row (the same arithmetic as `_rotary`), once per step for every layer."""
    inv = 1.0 / (base ** (torch.arange(0, d, 2, device=positions.device, dtype=torch.float32) / d))
    angles = (positions.to(torch.float32)[:, None] * inv[None, :])[:, None, None, :]
    return angles.cos(), angles.sin()


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    cos, sin = cos.to(x.dtype), sin.to(x.dtype)
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


def decode_batch(model: TinyByteLM, tokens: torch.Tensor, cache: BatchCache) -> Tuple[torch.Tensor, BatchCache]:
    """Logits [B, V] after appending `tokens` ([B] ids) to each row, and the grown cache."""
    config = model.config
    x = model.embed(tokens[:, None])
    batch = x.shape[0]
    pad = torch.cat([cache.pad, cache.pad.new_zeros((batch, 1))], dim=1)
    layers = []
    cos, sin = _rotary_angles(cache.positions, config.d_model // config.n_heads, config.rope_base)
    for block, (k_past, v_past) in zip(model.blocks, cache.layers):
        q, k, v = block.qkv(block.norm1(x)).view(batch, 1, 3, config.n_heads, -1).permute(2, 0, 3, 1, 4)
        q, k = _rotate(q, cos, sin), _rotate(k, cos, sin)
        k, v = torch.cat([k_past, k], dim=-2), torch.cat([v_past, v], dim=-2)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
        attended = torch.matmul(torch.softmax(scores, dim=-1), v)
        x = x + block.out(attended.transpose(1, 2).reshape(batch, 1, -1))
        x = x + block.fc2(F.gelu(block.fc1(block.norm2(x))))
        layers.append((k, v))
    logits = model.lm_head(model.norm(x)[:, -1])
    return logits, BatchCache(layers, pad, cache.positions + 1)
