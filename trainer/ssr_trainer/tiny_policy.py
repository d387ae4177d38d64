"""The tiny byte-level model as a Policy (pure torch: works on torch 1.13), with batched decoding."""

from __future__ import annotations

import json
import os
from typing import Optional

import torch

from . import tiny_batch
from .policy import Policy
from .tiny_model import TinyByteLM, TinyConfig
from .torch_io import torch_save
from .tokenizer import ByteTokenizer

TINY_CONFIG_FILE = "tiny_config.json"
TINY_WEIGHTS_FILE = "model.pt"

class TinyPolicy(Policy):
    kind = "tiny"

    def __init__(self, config: Optional[TinyConfig] = None, name: str = "tiny", device: Optional[str] = None,
                 dtype: Optional[torch.dtype] = None) -> None:
        self.module = TinyByteLM(config)  # initialised in fp32 (the same weights in every dtype, rounded)
        if device:
            self.module.to(device)
        if dtype is not None:
            self.module.to(dtype=dtype)
        self.config = self.module.config
        self.tokenizer = ByteTokenizer()
        self.name = name
        self.max_model_len = self.config.max_seq_len

    def hidden(self, input_ids, attention_mask):
        # Right padding only: causal attention already keeps real positions from seeing pads.
        return self.module.hidden(input_ids)[0]

    def head(self, hidden):
        return self.module.lm_head(hidden)

    def decode_step(self, input_ids, cache):
        hidden, cache = self.module.hidden(input_ids, cache)
        return self.module.lm_head(hidden[:, -1]), cache

    def prefill(self, prompts):
        return tiny_batch.prefill(self.module, prompts, self.device)

    def batch_cache(self, caches):
        return tiny_batch.pad_caches(caches)

    def join_cache(self, state, caches):
        return tiny_batch.pad_caches(caches) if state is None else tiny_batch.join(state, caches)

    def decode_batch(self, tokens, state):
        return tiny_batch.decode_batch(self.module, torch.tensor(tokens, device=self.device), state)

    def select_rows(self, state, rows):
        return tiny_batch.select_rows(state, rows)

    def split_cache(self, state):
        return tiny_batch.split_rows(state)

    slices_caches = True

    def slice_cache(self, cache, length, copy=False):
        cut = [(k[..., :length, :], v[..., :length, :]) for k, v in cache]
        return [(k.clone(), v.clone()) for k, v in cut] if copy else cut

    def cache_bytes(self, cache):
        return sum(k.element_size() * k.numel() + v.element_size() * v.numel() for k, v in cache)

    def save(self, path: str) -> str:
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, TINY_CONFIG_FILE), "w") as out:
            json.dump(self.config.to_dict(), out, indent=1)
        torch_save(self.module.state_dict(), os.path.join(path, TINY_WEIGHTS_FILE))
        return "full"

    def stage_weights(self, path: str):
        return torch.load(os.path.join(path, TINY_WEIGHTS_FILE), map_location="cpu", weights_only=True)

    def apply_weights(self, staged) -> None:
        self.module.load_state_dict(staged)

    @classmethod
    def load(cls, path: str, device: Optional[str] = None, dtype: Optional[torch.dtype] = None) -> "TinyPolicy":
        with open(os.path.join(path, TINY_CONFIG_FILE)) as handle:
            config = TinyConfig(**json.load(handle))
        policy = cls(config, name=os.path.basename(os.path.normpath(path)) or "tiny", device=device, dtype=dtype)
        policy.load_weights(path)
        return policy
