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
