"""ssr samples -> the batch TRL's ``GRPOTrainer`` trains on (the dict its
``_generate_and_score_completions`` returns), so recorded trajectories can replace TRL's own
generation. ``offline_grpo_trainer()`` builds a GRPOTrainer subclass that does exactly that.

Mapping (per sample, one row): prompt = tokens before the first trained token (left-padded, as
TRL pads prompts); completion = the rest (right-padded); ``tool_mask`` = lossMask over the
completion (0 on tool outputs), ``completion_mask`` = 1 on real tokens; ``advantages`` = ssr's
advantage as given; ``old_per_token_logps`` = ``sampling_per_token_logps`` = the sampler's
logprobs (bypass mode: the ratio is taken against the sampler); ``num_items_in_batch`` = trained
tokens in the whole batch (the token-level denominator of TRL's ``dapo`` loss).
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional

from .common import response_start, trainable

#: GRPOConfig settings that make TRL's loss match ssr's trainer (see trainer/README.md).
MATCHING_GRPO_CONFIG = {"loss_type": "dapo", "epsilon": 0.2, "epsilon_high": 0.28, "delta": 3.0, "beta": 0.0, "num_iterations": 1}


def to_grpo_batch(samples: Iterable[Any], pad_token_id: int, current_version: Optional[int] = None, max_staleness: int = 8) -> Dict[str, Any]:
    """Plain padded lists; ``to_tensors`` turns them into the tensors TRL expects."""
    kept, dropped = trainable(samples, current_version, max_staleness)
    prompts: List[List[int]] = []
    completions: List[List[int]] = []
    tool_masks: List[List[int]] = []
    logps: List[List[float]] = []
    for sample in kept:
        start = response_start(sample)
        tokens = sample.tokens
        prompts.append(tokens.ids[:start])
        completions.append(tokens.ids[start:])
        tool_masks.append(tokens.loss_mask[start:])
        logps.append([0.0 if lp is None else lp for lp in tokens.logprobs[start:]])
    p_width = max((len(p) for p in prompts), default=0)
    c_width = max((len(c) for c in completions), default=0)

    def left(rows, fill):
        return [[fill] * (p_width - len(r)) + r for r in rows]

    def right(rows, fill):
        return [r + [fill] * (c_width - len(r)) for r in rows]

    return {
        "prompt_ids": left(prompts, pad_token_id),
        "prompt_mask": left([[1] * len(p) for p in prompts], 0),
        "completion_ids": right(completions, pad_token_id),
        "completion_mask": right([[1] * len(c) for c in completions], 0),
        "tool_mask": right(tool_masks, 1),  # TRL pads tool_mask with 1; completion_mask zeroes the padding
        "advantages": [s.advantage for s in kept],
        "old_per_token_logps": right(logps, 0.0),
        "sampling_per_token_logps": right(logps, 0.0),
        "num_items_in_batch": sum(sum(m) for m in tool_masks),
        "ssr": {"ids": [s.id for s in kept], "roles": [s.role for s in kept], "dropped": dict(dropped)},
    }


def to_tensors(batch: Dict[str, Any], device: Any = "cpu") -> Dict[str, Any]:
    """The batch as torch tensors (the `ssr` bookkeeping entry is left out)."""
    import torch

    dtypes = {"prompt_ids": torch.long, "prompt_mask": torch.long, "completion_ids": torch.long, "completion_mask": torch.long,
              "tool_mask": torch.long, "advantages": torch.float32, "old_per_token_logps": torch.float32,
              "sampling_per_token_logps": torch.float32, "num_items_in_batch": torch.float32}
    return {key: torch.tensor(batch[key], dtype=dtype, device=device) for key, dtype in dtypes.items()}


def offline_grpo_trainer(base: Any = None) -> Any:
    """A ``trl.GRPOTrainer`` subclass that trains on queued ssr batches instead of generating.

    Usage: ``cls = offline_grpo_trainer(); trainer = cls(model=..., args=GRPOConfig(**MATCHING_GRPO_CONFIG, ...),
    reward_funcs=[lambda **_: [0.0]], train_dataset=...); trainer.ssr_queue.append(to_tensors(to_grpo_batch(samples, pad)))``.
    """
    if base is None:
        from trl import GRPOTrainer as base  # lazy: TRL is optional

    class OfflineGRPOTrainer(base):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.ssr_queue: List[Dict[str, Any]] = []

        def _generate_and_score_completions(self, inputs: Any) -> Dict[str, Any]:
            if not self.ssr_queue:
                raise RuntimeError("no ssr batch queued: append to_tensors(to_grpo_batch(...)) to trainer.ssr_queue")
            return self.ssr_queue.pop(0)

    return OfflineGRPOTrainer
