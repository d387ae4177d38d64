"""The RL loss, in pure torch: target log-probs in fp32 and the clipped token-level policy loss.

Everything here works on torch 1.13 (Debian's) and 2.x. Nothing here knows about models beyond a
``head`` callable that maps hidden states to logits.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable, Dict, Optional, Tuple

import torch
from torch.utils.checkpoint import checkpoint

#: Tokens per chunk when turning hidden states into fp32 log-probs.
DEFAULT_LOGPROB_CHUNK = 1024

OLD_LOGPROB_SOURCES = ("sampler", "trainer")


@dataclass
class LossConfig:
    """The policy-gradient objective. Defaults are SSR's: asymmetric clip, dual clip, no KL/entropy."""

    #: ratio floor 1 - eps_low (for negative advantages)
    eps_low: float = 0.2
    #: ratio ceiling 1 + eps_high (for positive advantages); higher than eps_low (clip-higher)
    eps_high: float = 0.28
    #: dual-clip constant c: a negative-advantage token's loss is capped at -c*A. None disables it.
    dual_clip: Optional[float] = 3.0
    #: "sampler" (bypass mode): the ratio is taken against the sampler's logprobs.
    #: "trainer": against the trainer's own logprobs at the start of the step (ratio 1 in value,
    #: one optimizer step per batch), the sampler mismatch then corrected by `tis_cap`.
    #: Tokens of samples with processed logprobs (sampled at temperature != 1, top-p < 1 or top-k)
    #: always take the "trainer" path: their sampler logprobs are not the model's distribution.
    old_logprobs: str = "sampler"
    #: Truncated importance weight min(exp(old - sampler), tis_cap) = min(pi_old / mu, C), detached,
    #: on the tokens that take the "trainer" path. None: no correction (weight 1).
    tis_cap: Optional[float] = 2.0
    #: Entropy bonus coefficient (0: no entropy term, and no full-vocab entropy is computed).
    entropy_coef: float = 0.0
    logprob_chunk: int = DEFAULT_LOGPROB_CHUNK

    def validate(self) -> "LossConfig":
        if not (0 <= self.eps_low < 1) or self.eps_high < 0:
            raise ValueError(f"clip range must satisfy 0 <= eps_low < 1 and eps_high >= 0, got {self.eps_low}, {self.eps_high}")
        if self.dual_clip is not None and self.dual_clip <= 1:
            raise ValueError(f"dual_clip must be > 1 (or null), got {self.dual_clip}")
        if self.old_logprobs not in OLD_LOGPROB_SOURCES:
            raise ValueError(f"old_logprobs must be one of {OLD_LOGPROB_SOURCES}, got {self.old_logprobs!r}")
        if self.tis_cap is not None and self.tis_cap <= 0:
            raise ValueError(f"tis_cap must be > 0 (or null), got {self.tis_cap}")
        if self.logprob_chunk < 1:
            raise ValueError(f"logprob_chunk must be >= 1, got {self.logprob_chunk}")
        return self

    @classmethod
    def field_names(cls):
        return {f.name for f in fields(cls)}


def _chunk_logprobs(hidden: torch.Tensor, targets: torch.Tensor, head: Callable, with_entropy: bool) -> torch.Tensor:
    logits = head(hidden).float()
    lse = torch.logsumexp(logits, dim=-1)
    picked = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1) - lse
    if not with_entropy:
        return picked
    probs = torch.softmax(logits, dim=-1)
    entropy = lse - (probs * logits).sum(-1)
    return torch.stack([picked, entropy], dim=-1)


def target_logprobs(
    hidden: torch.Tensor,
    targets: torch.Tensor,
    head: Callable[[torch.Tensor], torch.Tensor],
    chunk_size: int = DEFAULT_LOGPROB_CHUNK,
    with_entropy: bool = False,
) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    """fp32 log p(target) for rows of ``hidden`` ([N, H] -> [N]), ``chunk_size`` rows at a time.

    Under autograd each chunk is checkpointed: only the chunk's inputs are kept, and its
    [chunk, vocab] fp32 logits are rebuilt in backward, so the peak is one chunk's logits instead
    of the whole sequence's. Returns (logprobs, entropy or None).
    """
    if hidden.shape[0] == 0:
        empty = hidden.new_zeros((0,), dtype=torch.float32)
        return empty, (empty if with_entropy else None)
    grad = torch.is_grad_enabled() and hidden.requires_grad
    outs = []
    for start in range(0, hidden.shape[0], chunk_size):
        h, t = hidden[start : start + chunk_size], targets[start : start + chunk_size]
        if grad:
            outs.append(checkpoint(_chunk_logprobs, h, t, head, with_entropy, use_reentrant=False))
        else:
            outs.append(_chunk_logprobs(h, t, head, with_entropy))
    out = torch.cat(outs, dim=0)
    if with_entropy:
        return out[..., 0], out[..., 1]
    return out, None


def policy_loss_terms(
    logprobs: torch.Tensor,
    sampler_logprobs: torch.Tensor,
    advantages: torch.Tensor,
    config: LossConfig,
    entropy: Optional[torch.Tensor] = None,
    processed: Optional[torch.Tensor] = None,
) -> Tuple[torch.Tensor, Dict[str, torch.Tensor]]:
    """Per-token loss for trained tokens (all inputs [N], one entry per token with lossMask 1).

    ``processed`` ([N] bool, optional) marks tokens whose sampler logprobs are processed ones
    (``sampling.logprobs == "processed"``): their ratio is taken against the trainer's own detached
    logprobs and the objective is weighted by min(exp(old - sampler), tis_cap) (TIS).

    Returns (per-token loss [N], per-token diagnostics). The caller sums the loss and divides by
    the batch's token count fixed before micro-batching.
    """
    sampler_logprobs = sampler_logprobs.to(logprobs.dtype)
    advantages = advantages.to(logprobs.dtype)
    trainer_path = torch.full_like(advantages, config.old_logprobs == "trainer", dtype=torch.bool)
    if processed is not None:
        trainer_path = trainer_path | processed.to(device=trainer_path.device, dtype=torch.bool)
    own = logprobs.detach()
    old = torch.where(trainer_path, own, sampler_logprobs)
    weight = torch.ones_like(own)
    if config.tis_cap is not None:
        weight = torch.where(trainer_path, torch.exp(own - sampler_logprobs).clamp(max=config.tis_cap), weight)
    ratio = torch.exp(logprobs - old)
    clipped = ratio.clamp(1 - config.eps_low, 1 + config.eps_high)
    objective = torch.min(ratio * advantages, clipped * advantages)
    negative = advantages < 0
    if config.dual_clip is not None:
        # Dual clip: a huge ratio on a bad token must not give an unbounded loss.
        objective = torch.where(negative, torch.max(objective, config.dual_clip * advantages), objective)
    objective = objective * weight
    loss = -objective
    if config.entropy_coef and entropy is not None:
        loss = loss - config.entropy_coef * entropy

    with torch.no_grad():
        detached = ratio.detach()
        # Ratio of the trainer to the sampler (equal to `ratio` in bypass mode).
        log_sampler_ratio = logprobs.detach() - sampler_logprobs
        sampler_ratio = torch.exp(log_sampler_ratio)
        diagnostics = {
            "ratio": detached,
            "clip_low": (negative & (detached < 1 - config.eps_low)).float(),
            "clip_high": ((advantages > 0) & (detached > 1 + config.eps_high)).float(),
            "dual_clip": (negative & (detached > config.dual_clip)).float() if config.dual_clip is not None else torch.zeros_like(detached),
            # k3 estimator of KL(sampler || trainer) on the sampler's tokens: r - 1 - log r, r = p/q.
            "kl": sampler_ratio - 1 - log_sampler_ratio,
            "tis_tokens": trainer_path.float(),
            "tis_weight": torch.where(trainer_path, weight, torch.zeros_like(weight)),
        }
        if entropy is not None:
            diagnostics["entropy"] = entropy.detach()
    return loss, diagnostics


def policy_loss(
    logprobs: torch.Tensor,
    sampler_logprobs: torch.Tensor,
    advantages: torch.Tensor,
    denominator: float,
    config: Optional[LossConfig] = None,
    entropy: Optional[torch.Tensor] = None,
    processed: Optional[torch.Tensor] = None,
) -> Tuple[torch.Tensor, Dict[str, float]]:
    """Token-level loss sum(per-token loss) / denominator, with summed diagnostics."""
    config = (config or LossConfig()).validate()
    if denominator <= 0:
        raise ValueError(f"denominator must be > 0, got {denominator}")
    per_token, diagnostics = policy_loss_terms(logprobs, sampler_logprobs, advantages, config, entropy, processed)
    sums = {name: float(value.sum()) for name, value in diagnostics.items()}
    sums["tokens"] = float(per_token.numel())
    sums["loss"] = float(per_token.detach().sum())
    return per_token.sum() / denominator, sums
