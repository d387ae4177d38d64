"""A checkpoint's optimizer state in either form (by position: one process, DDP; by name: FSDP)
converts to the other, so a checkpoint of any mode resumes in any mode (fsdp_state.py)."""

import pytest
import torch

from ssr_trainer.fsdp_state import by_name, by_position, trainable_names
from ssr_trainer.models import TinyPolicy
from ssr_trainer.tiny_model import TinyConfig


def stepped_optimizer(policy):
    params = policy.trainable_parameters()
    optimizer = torch.optim.AdamW(params, lr=0.01)
    sum(p.sum() for p in params).backward()
    optimizer.step()
    return optimizer.state_dict()


def test_positional_and_named_optimizer_states_convert_both_ways():
    policy = TinyPolicy(TinyConfig(d_model=16, n_layers=1, n_heads=2, d_ff=32, seed=1))
    names = trainable_names(policy)
    assert names[0].startswith("model.") and len(names) == len(policy.trainable_parameters())
    positional = stepped_optimizer(policy)
    named = by_name(positional, names)
    assert named["param_groups"][0]["params"] == names and set(named["state"]) == set(names)
    assert torch.equal(named["state"][names[1]]["exp_avg"], positional["state"][1]["exp_avg"])
    back = by_position(named, names)
    assert back["param_groups"] == positional["param_groups"] and back["state"].keys() == positional["state"].keys()
    assert by_name(named, names) is named and by_position(positional, names) is positional  # already in that form
    with pytest.raises(ValueError, match="holds 2 parameters, this trainer trains"):
        by_position({"state": {}, "param_groups": [{"params": names[:2]}]}, names)
    with pytest.raises(ValueError, match="does not train: model.nope"):
        by_position({"state": {}, "param_groups": [{"params": ["model.nope", *names[1:]]}]}, names)
