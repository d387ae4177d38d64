"""ssr samples -> SkyRL's ``GeneratorOutput`` (skyrl_train.generators.base).

SkyRL's trainer takes a generator's output: per trajectory the prompt ids, the response ids (the
policy's tokens and the tool outputs between them), a loss mask over the response, the reward, the
rollout logprobs and a trajectory id whose ``instance_id`` groups the trajectories that share a
baseline. It computes advantages itself from the rewards of each group: choose the estimator that
matches ssr's (``rloo``; or ``grpo`` with std normalisation off = ssr's ``dr-grpo``). ssr's own
advantages travel along under ``ssr`` so they can be checked against SkyRL's.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Optional

from .common import response_start, trainable


def to_generator_output(samples: Iterable[Any], current_version: Optional[int] = None, max_staleness: int = 8) -> Dict[str, Any]:
    """A GeneratorOutput-shaped dict of plain lists (``trajectory_ids`` as dicts; see ``to_skyrl``)."""
    kept, dropped = trainable(samples, current_version, max_staleness)
    keys = ("prompt_token_ids", "response_ids", "rewards", "loss_masks", "stop_reasons", "rollout_logprobs", "trajectory_ids")
    out: Dict[str, Any] = {key: [] for key in keys}
    repetition: Dict[str, int] = {}
    for sample in kept:
        start = response_start(sample)
        tokens = sample.tokens
        # Instance ids are per role: an injector group and a solver group never share a baseline.
        instance = f"{sample.role}:{sample.group_id}"
        repetition[instance] = repetition.get(instance, -1) + 1
        out["prompt_token_ids"].append(tokens.ids[:start])
        out["response_ids"].append(tokens.ids[start:])
        out["rewards"].append(sample.reward)
        out["loss_masks"].append(tokens.loss_mask[start:])
        out["stop_reasons"].append(sample.finish_reason)
        # SkyRL wants a number on every response token; tool-output tokens are masked anyway.
        out["rollout_logprobs"].append([0.0 if lp is None else lp for lp in tokens.logprobs[start:]])
        out["trajectory_ids"].append({"instance_id": instance, "repetition_id": repetition[instance]})
    out["is_last_step"] = None
    out["rollout_metrics"] = {"ssr/dropped_" + reason: count for reason, count in sorted(dropped.items())}
    out["ssr"] = {
        "ids": [s.id for s in kept],
        "roles": [s.role for s in kept],
        "policy_versions": [s.policy_version for s in kept],
        "advantages": [s.advantage for s in kept],
    }
    return out


def to_skyrl(output: Dict[str, Any]) -> Dict[str, Any]:
    """The same output with SkyRL's own TrajectoryID objects (imports skyrl_train)."""
    from skyrl_train.generators.base import TrajectoryID  # lazy: SkyRL is optional

    converted = {key: value for key, value in output.items() if key != "ssr"}
    converted["trajectory_ids"] = [TrajectoryID(**entry) for entry in output["trajectory_ids"]]
    return converted
