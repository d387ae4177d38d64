"""What both adapters share: which samples can train, and where a trajectory's response begins."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, List, Optional, Tuple

from ..samples import TrainingSample, parse_sample


def trainable(samples: Iterable[Any], current_version: Optional[int] = None, max_staleness: int = 8) -> Tuple[List[TrainingSample], Counter]:
    """Parsed samples that carry tokens and a trained token, are not masked and (with
    `current_version`) not stale; plus the count of the others by reason."""
    kept, dropped = [], Counter()
    for i, raw in enumerate(samples):
        sample = raw if isinstance(raw, TrainingSample) else parse_sample(raw, f"sample {i}")
        if sample.masked:
            dropped["masked"] += 1
        elif sample.tokens is None:
            dropped["no_tokens"] += 1
        elif sample.tokens.loss_tokens == 0:
            dropped["no_loss_tokens"] += 1
        elif current_version is not None and current_version - sample.policy_version > max_staleness:
            dropped["stale"] += 1
        else:
            kept.append(sample)
    return kept, dropped


def response_start(sample: TrainingSample) -> int:
    """Index of the first trained token: everything before it is the prompt, everything from it on
    (the policy's turns and, between them, tool outputs with lossMask 0) is the response."""
    return sample.tokens.loss_mask.index(1)
