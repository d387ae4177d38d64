"""The metrics of a step: per-role sums summarised per token, and gradient norms."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

import torch


def summary(sums: Dict[str, float]) -> Dict[str, Any]:
    """One role's (or the whole step's) sums as the metrics report them: per-token rates, token counts, loss."""
    n = sums.get("loss_tokens", 0.0)

    def per_token(key: str) -> float:
        return sums.get(key, 0.0) / n if n else 0.0

    out = {
        "tokens": {"trained": int(n), "sequence": int(sums.get("sequence_tokens", 0))},
        "loss": sums.get("loss", 0.0),
        "clip_frac_low": per_token("clip_low"),
        "clip_frac_high": per_token("clip_high"),
        "dual_clip_frac": per_token("dual_clip"),
        "approx_kl": per_token("kl"),
        "mean_ratio": per_token("ratio"),
        # Tokens whose sampler logprobs were processed (or old_logprobs "trainer"): the TIS-weighted share.
        "tis_frac": per_token("tis_tokens"),
        "mean_tis_weight": sums.get("tis_weight", 0.0) / sums["tis_tokens"] if sums.get("tis_tokens") else 0.0,
    }
    if "entropy" in sums:
        out["entropy"] = per_token("entropy")
    return out


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def grad_square_sum(params: Sequence[torch.Tensor], minus: Optional[Sequence[Optional[torch.Tensor]]] = None) -> float:
    """The squared L2 norm of the accumulated gradients, or of their growth since `minus` was taken
    (squared, so that the shards of an FSDP gradient add up across ranks)."""
    total = 0.0
    for i, p in enumerate(params):
        if p.grad is None:
            continue
        g = p.grad.detach().float()
        if minus is not None and minus[i] is not None:
            g = g - minus[i].float()
        total += float(g.pow(2).sum())
    return total
