"""Sampling once a multi-rank weight load failed mid-copy (ranks_apart.py): the two-rank run that
gets there is in test_distributed.py; here, in one process, which sampling modes still answer."""

import pytest

from ssr_trainer.models import TinyPolicy
from ssr_trainer.policy_service import PolicyService
from ssr_trainer.server import ApiError
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import TrainConfig, Trainer

BODY = {"prompt": [256, 258, 65], "max_tokens": 3, "seed": 1}
APART = "the trainer's ranks hold different weights: loading /ckpt failed on rank 1 of 2 while copying the weights in"


@pytest.mark.parametrize("mode", ["shared", "copy"])
def test_sampling_after_ranks_apart_is_refused_only_from_the_trained_weights(mode):
    policy = TinyPolicy(TinyConfig(d_model=16, n_layers=1, n_heads=2, d_ff=32, seed=1))
    service = PolicyService(policy, Trainer(policy, TrainConfig()), sampling_weights=mode)
    service.trainer.ranks_apart = APART  # what rank_weights.load_on_every_rank sets on every rank
    with pytest.raises(ApiError) as health:
        service.health()
    assert health.value.status == 503 and health.value.extra["status"] == "ranks_apart" and health.value.message == APART
    if mode == "copy":  # the last published weights, which no failed load touched
        assert service.completions(dict(BODY))["choices"][0]["token_ids"]
        return
    # shared: rank 0's own weights, perhaps half copied
    for request in (service.completions, service.chat_completions, service.logprobs):
        with pytest.raises(ApiError) as refused:
            request({"messages": [{"role": "user", "content": "hi"}], **BODY})
        assert refused.value.status == 500 and refused.value.kind == "trainer_ranks_apart" and refused.value.message == APART


def test_one_process_copy_that_stops_part_way_refuses_every_later_step_save_and_load(tmp_path):
    """One process has the same hazard as many ranks: torch copies tensor by tensor, so a copy that
    stops part way (out of memory) leaves a model no checkpoint describes; it answered 400 and
    training went on from it."""
    policy = TinyPolicy(TinyConfig(d_model=16, n_layers=1, n_heads=2, d_ff=32, seed=1))
    service = PolicyService(policy, Trainer(policy, TrainConfig()), output_dir=str(tmp_path))
    saved = service.save({"weights_only": True})
    whole = policy.apply_weights

    def stops_half_way(staged):
        names = sorted(staged)
        whole({**policy.module.state_dict(), **{name: staged[name] for name in names[: len(names) // 2]}})
        raise RuntimeError("CUDA out of memory (injected)")

    policy.apply_weights = stops_half_way
    with pytest.raises(ApiError) as failed:
        service.update_weights_from_disk({"model_path": saved["path"]})
    assert failed.value.status == 500 and failed.value.kind == "trainer_ranks_apart"
    assert "part old, part new" in failed.value.message and "CUDA out of memory (injected)" in failed.value.message
    assert "--resume" in failed.value.message
    with pytest.raises(ApiError) as health:
        service.health()
    assert health.value.status == 503
    policy.apply_weights = whole  # a working copy now: the model is still refused until restarted
    for request in (lambda: service.update_weights_from_disk({"model_path": saved["path"]}), lambda: service.save({"weights_only": True})):
        with pytest.raises(ApiError) as refused:
            request()
        assert refused.value.status == 500 and refused.value.kind == "trainer_ranks_apart"
    with pytest.raises(RuntimeError, match="part old, part new"):
        service.trainer.step([])
