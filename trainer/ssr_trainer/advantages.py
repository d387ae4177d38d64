"""Reference group-relative advantage estimators (method §9), the same definitions as ssr's
`src/rl/advantages.ts`, pinned by `test/fixtures/rl/advantages.json`.

The trainer never recomputes advantages (ssr's are used as given); this module exists so the
Python side can check them and so the adapters can reproduce them for other trainers.
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence

ESTIMATORS = ("rloo", "grpo", "dr-grpo")
#: Added to GRPO's std so an all-equal group gives 0, not 0/0.
GRPO_STD_EPSILON = 1e-6


def compute_advantages(rewards: Sequence[float], estimator: str = "rloo") -> List[float]:
    """Advantages of one group's rewards, in order.

    - ``rloo``: r_i minus the mean of the *other* rewards (leave-one-out).
    - ``grpo``: (r_i - mean) / (population std + 1e-6).
    - ``dr-grpo``: r_i - mean (no std normalisation).

    A group of one, or of equal rewards, gets exact zeros; an empty group gives ``[]``.
    """
    if estimator not in ESTIMATORS:
        raise ValueError(f"unknown advantage estimator {estimator!r}: expected one of {', '.join(ESTIMATORS)}")
    for i, r in enumerate(rewards):
        if not isinstance(r, (int, float)) or not math.isfinite(r):
            raise ValueError(f"reward {i} of the group is not a finite number: {r!r}")
    n = len(rewards)
    if n <= 1 or all(r == rewards[0] for r in rewards):
        return [0.0] * n
    total = math.fsum(rewards)
    mean = total / n
    if estimator == "rloo":
        return [r - (total - r) / (n - 1) for r in rewards]
    if estimator == "dr-grpo":
        return [r - mean for r in rewards]
    std = math.sqrt(math.fsum((r - mean) ** 2 for r in rewards) / n)
    return [(r - mean) / (std + GRPO_STD_EPSILON) for r in rewards]


def group_advantages(rewards_by_group: Dict[str, Sequence[float]], estimator: str = "rloo") -> Dict[str, List[float]]:
    """compute_advantages over several groups at once (group id -> advantages in the same order)."""
    return {group: compute_advantages(rewards, estimator) for group, rewards in rewards_by_group.items()}


#: What a step's summed token loss is divided by (TrainConfig.loss_denominator).
LOSS_DENOMINATORS = ("tokens", "budget")


def loss_denominator(mode, loss_tokens: Sequence[int], generation_budget: Optional[int] = None) -> float:
    """The constant a step's summed per-token loss is divided by, over the samples of the batch
    (``loss_tokens``: the trained-token count of each).

    - ``"tokens"`` (GRPO, RLOO): the batch's trained tokens, a token-level mean.
    - ``"budget"`` (Dr.GRPO): ``generation_budget`` x the number of samples, the same for every
      batch of that size whatever the lengths: the paper's sum over tokens divided by the
      maximum generation length, averaged over the batch, so a long sequence is not down-weighted.
    - a number: that number.
    """
    if mode == "tokens":
        return float(sum(loss_tokens))
    if mode == "budget":
        if not isinstance(generation_budget, int) or isinstance(generation_budget, bool) or generation_budget < 1:
            raise ValueError(f"loss_denominator 'budget' needs generation_budget, a positive integer; got {generation_budget!r}")
        longest = max(loss_tokens, default=0)
        if longest > generation_budget:
            raise ValueError(f"a sample has {longest} trained tokens, more than the generation budget {generation_budget}")
        return float(generation_budget * len(loss_tokens))
    if isinstance(mode, (int, float)) and not isinstance(mode, bool) and mode > 0:
        return float(mode)
    raise ValueError(f"loss_denominator must be 'tokens', 'budget' or a positive number, got {mode!r}")
