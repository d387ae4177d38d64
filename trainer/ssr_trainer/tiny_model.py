"""A tiny byte-level causal transformer in pure torch, for machines with no GPU and no weights.

Pre-norm blocks, rotary positions (no length table), GELU MLP, a KV cache for sampling.
Attention is written out by hand (torch 1.13 has no scaled_dot_product_attention) and runs in
query chunks so a long prompt never materialises a full T x T score matrix per head at once.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import List, Optional, Tuple

import torch
from torch import nn
from torch.nn import functional as F
from torch.utils.checkpoint import checkpoint

from .tokenizer import BYTE_VOCAB, SPECIAL_TOKENS

Cache = List[Tuple[torch.Tensor, torch.Tensor]]


@dataclass
class TinyConfig:
    vocab_size: int = BYTE_VOCAB + len(SPECIAL_TOKENS)
    d_model: int = 64
    n_layers: int = 2
    n_heads: int = 4
    d_ff: int = 256
    #: what /tokenize reports as max_model_len; rotary positions themselves have no limit
    max_seq_len: int = 32768
    rope_base: float = 10000.0
    #: queries per attention chunk
    attn_chunk: int = 512
    seed: int = 0

    def __post_init__(self) -> None:
        if self.d_model % self.n_heads or (self.d_model // self.n_heads) % 2:
            raise ValueError(f"d_model {self.d_model} must split into {self.n_heads} heads of even size")

    def to_dict(self) -> dict:
        return asdict(self)

    def parameter_count(self) -> int:
        d, f = self.d_model, self.d_ff
        per_layer = 4 * d * d + 2 * d * f + f + d + 4 * d  # qkv+out, mlp (+biases), two LayerNorms
        return self.vocab_size * d * 2 + self.n_layers * per_layer + 2 * d


def _rotary(x: torch.Tensor, offset: int, base: float) -> torch.Tensor:
    """Applies rotary position embedding to [B, heads, T, d] starting at position `offset`."""
    d, length = x.shape[-1], x.shape[-2]
    inv = 1.0 / (base ** (torch.arange(0, d, 2, device=x.device, dtype=torch.float32) / d))
    angles = torch.arange(offset, offset + length, device=x.device, dtype=torch.float32)[:, None] * inv[None, :]
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


def _attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, q_offset: int) -> torch.Tensor:
    """Causal attention of queries at positions q_offset.. over all keys (key j visible to query i iff j <= i)."""
    scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    q_pos = torch.arange(q_offset, q_offset + q.shape[-2], device=q.device)[:, None]
    k_pos = torch.arange(k.shape[-2], device=q.device)[None, :]
    scores = scores.masked_fill(k_pos > q_pos, float("-inf"))
    return torch.matmul(torch.softmax(scores, dim=-1), v)


class Block(nn.Module):
    def __init__(self, config: TinyConfig) -> None:
        super().__init__()
        self.config = config
        self.norm1 = nn.LayerNorm(config.d_model)
        self.qkv = nn.Linear(config.d_model, 3 * config.d_model, bias=False)
        self.out = nn.Linear(config.d_model, config.d_model, bias=False)
        self.norm2 = nn.LayerNorm(config.d_model)
        self.fc1 = nn.Linear(config.d_model, config.d_ff)
        self.fc2 = nn.Linear(config.d_ff, config.d_model)

    def forward(self, x: torch.Tensor, past: Optional[Tuple[torch.Tensor, torch.Tensor]]) -> Tuple[torch.Tensor, Tuple[torch.Tensor, torch.Tensor]]:
        batch, length, _ = x.shape
        heads = self.config.n_heads
        q, k, v = self.qkv(self.norm1(x)).view(batch, length, 3, heads, -1).permute(2, 0, 3, 1, 4)
        offset = 0 if past is None else past[0].shape[-2]
        q, k = _rotary(q, offset, self.config.rope_base), _rotary(k, offset, self.config.rope_base)
        if past is not None:
            k, v = torch.cat([past[0], k], dim=-2), torch.cat([past[1], v], dim=-2)
        chunk = self.config.attn_chunk
        if length <= chunk:
            attended = _attend(q, k, v, offset)
        else:
            pieces = []
            for start in range(0, length, chunk):
                # Keys past the chunk are all masked: cut them off instead of computing them.
                end = min(start + chunk, length)
                args = (q[..., start:end, :], k[..., : offset + end, :], v[..., : offset + end, :], offset + start)
                if torch.is_grad_enabled() and x.requires_grad:
                    pieces.append(checkpoint(_attend, *args, use_reentrant=False))
                else:
                    pieces.append(_attend(*args))
            attended = torch.cat(pieces, dim=-2)
        x = x + self.out(attended.transpose(1, 2).reshape(batch, length, -1))
        x = x + self.fc2(F.gelu(self.fc1(self.norm2(x))))
        return x, (k, v)


class TinyByteLM(nn.Module):
    def __init__(self, config: Optional[TinyConfig] = None) -> None:
        super().__init__()
        self.config = config or TinyConfig()
        # Same config, same initial weights on any machine; the caller's RNG is left alone.
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(self.config.seed)
            self.embed = nn.Embedding(self.config.vocab_size, self.config.d_model)
            self.blocks = nn.ModuleList(Block(self.config) for _ in range(self.config.n_layers))
            self.norm = nn.LayerNorm(self.config.d_model)
            self.lm_head = nn.Linear(self.config.d_model, self.config.vocab_size, bias=False)
            for module in self.modules():
                if isinstance(module, (nn.Linear, nn.Embedding)):
                    nn.init.normal_(module.weight, std=0.02)
                    if getattr(module, "bias", None) is not None:
                        nn.init.zeros_(module.bias)

    def hidden(self, input_ids: torch.Tensor, cache: Optional[Cache] = None) -> Tuple[torch.Tensor, Cache]:
        """Final-norm hidden states [B, T, d] and the new KV cache."""
        x = self.embed(input_ids)
        new_cache: Cache = []
        for i, block in enumerate(self.blocks):
            x, kv = block(x, None if cache is None else cache[i])
            new_cache.append(kv)
        return self.norm(x), new_cache

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        """Full logits [B, T, V] (for benchmarks and simple uses; training goes through `hidden`)."""
        hidden, _ = self.hidden(input_ids)
        return self.lm_head(hidden)
