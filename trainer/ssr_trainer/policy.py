"""The policy interface: a model, its tokenizer and the two passes everything else needs.

- ``hidden(ids)`` + ``head(hidden)``: the teacher-forced pass. Training and the service's reported
  logprobs both go through ``batch_logprobs`` below, so a sample's ratio is 1 at equal versions.
- ``decode_step(ids, cache)``: incremental logits for sampling.

The models: tiny_policy.py (pure torch), hf_policy.py (transformers); models.py builds one from flags.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import torch

from .loss import DEFAULT_LOGPROB_CHUNK, target_logprobs


class Policy:
    kind = "base"
    name: str
    tokenizer: Any
    module: torch.nn.Module
    max_model_len: int
    lora = False

    @property
    def device(self) -> torch.device:
        return next(self.module.parameters()).device

    def hidden(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def head(self, hidden: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def decode_step(self, input_ids: torch.Tensor, cache: Any) -> Tuple[torch.Tensor, Any]:
        raise NotImplementedError

    # Batched decoding (the service's running batch, running_batch.py). The defaults go row by row with `decode_step`:
    # correct for any model, no faster; the tiny model overrides them with padded forwards.
    def prefill(self, prompts: List[List[int]]) -> Tuple[torch.Tensor, List[Any]]:
        """Next-token logits [B, V] after each prompt, and each prompt's own cache (for `batch_cache`)."""
        rows = [self.decode_step(torch.tensor([prompt], device=self.device), None) for prompt in prompts]
        return torch.cat([logits for logits, _ in rows]), [cache for _, cache in rows]

    def batch_cache(self, caches: List[Any]) -> Any:
        """One batch state from the caches of sequences prefilled alone (`decode_step(prompt, None)`)."""
        return list(caches)

    def join_cache(self, state: Any, caches: List[Any]) -> Any:
        """`state` (None: an empty batch) with rows of `caches` (as `batch_cache` takes them) after its own."""
        return self.batch_cache((self.split_cache(state) if state is not None else []) + list(caches))

    def decode_batch(self, tokens: List[int], state: Any) -> Tuple[torch.Tensor, Any]:
        """Logits [B, V] after appending tokens[b] to row b, and the new batch state (`state` may
        be updated in place: use only the one returned)."""
        rows = [self.decode_step(torch.tensor([[token]], device=self.device), cache) for token, cache in zip(tokens, state)]
        return torch.cat([logits for logits, _ in rows]), [cache for _, cache in rows]

    def select_rows(self, state: Any, rows: List[int]) -> Any:
        """The batch state of `rows` only (the others finished)."""
        return [state[i] for i in rows]

    def split_cache(self, state: Any) -> List[Any]:
        """Each row's own cache (what `batch_cache` takes): rows leave or join a running batch through
        it. Valid after `select_rows` too, not after `decode_batch` or `join_cache` of the same state."""
        return list(state)

    #: whether `slice_cache` works, so the service may keep finished sequences' caches as prefixes
    slices_caches = False

    def slice_cache(self, cache: Any, length: int, copy: bool = False) -> Any:
        """The cache of the first `length` tokens of a sequence's cache (a prefix for `decode_step`);
        `copy`: in memory of its own (a view would keep a whole batch's tensors alive)."""
        raise NotImplementedError(f"{type(self).__name__} cannot slice its KV cache")

    def cache_bytes(self, cache: Any) -> int:
        """Memory a sequence's cache holds."""
        raise NotImplementedError(f"{type(self).__name__} cannot size its KV cache")

    @property
    def vocab_size(self) -> int:
        """The token ids the model embeds and samples: its embedding's rows, which may exceed the
        tokenizer's (a padded vocabulary, or hf-config with the byte tokenizer)."""
        return max(self.tokenizer.vocab_size, self.module.get_input_embeddings().num_embeddings
                   if hasattr(self.module, "get_input_embeddings") else self.tokenizer.vocab_size)

    def trainable_parameters(self) -> List[torch.nn.Parameter]:
        return [p for p in self.module.parameters() if p.requires_grad]

    def parameter_count(self) -> int:
        return sum(p.numel() for p in self.module.parameters())

    def save(self, path: str) -> str:
        """Writes the weights to `path`; returns "full" or "lora"."""
        raise NotImplementedError

    def stage_weights(self, path: str) -> Any:
        """Reads what `save` wrote to `path` into host memory, leaving the model untouched: every
        file read (and every read error) happens here, so that `apply_weights` is a copy in memory
        (rank_weights.py: every rank stages, and only if all did does any apply)."""
        raise NotImplementedError

    def weights_layout(self) -> Dict[str, Tuple[Tuple[int, ...], torch.dtype]]:
        """Name -> (shape, dtype) of every tensor `apply_weights` writes: a staged copy is checked
        against it before anything is copied in (checkpoint.check_staged), so the copy cannot stop
        halfway on a name or shape (torch's load_state_dict copies the tensors that fit, then raises)."""
        return {name: (tuple(tensor.shape), tensor.dtype) for name, tensor in self.module.state_dict().items()}

    def apply_weights(self, staged: Any) -> None:
        """Copies weights `stage_weights` read into the model (of the checkpoint's identity, which
        the checks before staging compared: names and shapes match)."""
        raise NotImplementedError

    def load_weights(self, path: str) -> None:
        """Loads what `save` wrote to `path` into this (identically built) policy."""
        self.apply_weights(self.stage_weights(path))


def batch_logprobs(
    policy: Policy,
    input_ids: torch.Tensor,
    select: torch.Tensor,
    chunk_size: int = DEFAULT_LOGPROB_CHUNK,
    with_entropy: bool = False,
    attention_mask: Optional[torch.Tensor] = None,
) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    """fp32 log p(input_ids[b, t] | input_ids[b, :t]) for every (b, t) where `select` is true,
    flattened row-major ([N]). Position 0 is never selectable (nothing predicts it)."""
    if attention_mask is None:
        attention_mask = torch.ones_like(input_ids)
    hidden = policy.hidden(input_ids, attention_mask)
    where = select[:, 1:].to(torch.bool)
    return target_logprobs(hidden[:, :-1][where], input_ids[:, 1:][where], policy.head, chunk_size, with_entropy)
