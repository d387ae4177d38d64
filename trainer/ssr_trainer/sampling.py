"""Sampling for the policy service: token-exact, with teacher-forced logprobs.

Tokens are drawn from the KV-cached decode logits; the logprobs reported for them come from a
separate teacher-forced pass through ``batch_logprobs`` (the trainer's code), so at equal weights
the trainer's ratio on these tokens is exactly 1. Logprobs are of the model's own distribution
(temperature 1, no top-p truncation), as the trainer computes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence

import torch

from .models import Policy, batch_logprobs


@dataclass
class Completion:
    token_ids: List[int]
    logprobs: List[float]
    finish_reason: str  # "stop" | "length"


def sample_next(logits: torch.Tensor, temperature: float, top_p: float, generator: Optional[torch.Generator]) -> int:
    """One token from [V] logits: greedy at temperature 0, else temperature + nucleus (top-p)."""
    logits = logits.float()
    if temperature <= 0:
        return int(torch.argmax(logits))
    probs = torch.softmax(logits / temperature, dim=-1)
    if top_p < 1.0:
        sorted_probs, order = torch.sort(probs, descending=True)
        # Keep the smallest prefix whose mass reaches top_p (always at least the top token).
        keep = (torch.cumsum(sorted_probs, dim=-1) - sorted_probs) < top_p
        kept = torch.zeros_like(probs).scatter(0, order, sorted_probs * keep)
        probs = kept / kept.sum()
    return int(torch.multinomial(probs, 1, generator=generator))


@torch.no_grad()
def generate(
    policy: Policy,
    prompt_ids: Sequence[int],
    max_tokens: int,
    temperature: float = 1.0,
    top_p: float = 1.0,
    stop_ids: Sequence[int] = (),
    seed: Optional[int] = None,
) -> Completion:
    """Samples up to `max_tokens` tokens after `prompt_ids`. A stop token ends the completion and is
    part of it (the model must learn to emit it); finish reason "stop", else "length"."""
    was_training = policy.module.training
    policy.module.eval()
    try:
        device = policy.device
        generator = None
        if seed is not None:
            generator = torch.Generator(device="cpu")
            generator.manual_seed(int(seed))
        stops = set(int(s) for s in stop_ids)
        out: List[int] = []
        finish = "length"
        logits, cache = policy.decode_step(torch.tensor([list(prompt_ids)], device=device), None)
        for _ in range(max_tokens):
            token = sample_next(logits[0].cpu(), temperature, top_p, generator)
            out.append(token)
            if token in stops:
                finish = "stop"
                break
            if len(out) == max_tokens:
                break
            logits, cache = policy.decode_step(torch.tensor([[token]], device=device), cache)
        logprobs = completion_logprobs(policy, prompt_ids, out)
        return Completion(token_ids=out, logprobs=logprobs, finish_reason=finish)
    finally:
        policy.module.train(was_training)


@torch.no_grad()
def completion_logprobs(policy: Policy, prompt_ids: Sequence[int], completion_ids: Sequence[int], chunk_size: Optional[int] = None) -> List[float]:
    """Teacher-forced fp32 logprobs of `completion_ids` after `prompt_ids`, via the trainer's code path."""
    if not completion_ids:
        return []
    ids = torch.tensor([list(prompt_ids) + list(completion_ids)], device=policy.device)
    select = torch.zeros_like(ids, dtype=torch.bool)
    select[0, len(prompt_ids) :] = True
    kwargs = {} if chunk_size is None else {"chunk_size": chunk_size}
    logprobs, _ = batch_logprobs(policy, ids, select, **kwargs)
    return [float(x) for x in logprobs.cpu()]
