"""POST /update_weights_from_disk over real HTTP: one service trains, a second only samples and is
given the first one's checkpoints, after which both serve the same version and the same completions."""

import json

import pytest

from test_service import TINY, call, sample_from, start

PROMPT = [256, 258, 65, 66, 67, 259, 258]


def seeded(base, seed=5):
    status, body = call(base, "/v1/completions", {"prompt": PROMPT, "max_tokens": 12, "seed": seed, "ignore_eos": True})
    assert status == 200, body
    return body


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pair")
    trainer, trainer_url = start(["--model", "tiny", "--model-config", TINY, "--lr", "0.05"], tmp / "trainer")
    sampler, sampler_url = start(["--model", "tiny", "--model-config", TINY], tmp / "sampler")
    yield trainer_url, sampler_url, tmp
    for process in (trainer, sampler):
        process.terminate()
        process.wait(timeout=10)


def train_once(trainer_url):
    body = seeded(trainer_url, seed=1)
    sample = sample_from(PROMPT, body["choices"][0], body["policy_version"], 1.0, f"s{body['policy_version']}")
    status, step = call(trainer_url, "/train/step", {"samples": [sample]})
    assert status == 200, step
    return step["version"]


def test_the_sampler_serves_each_version_the_trainer_saved(pair):
    trainer_url, sampler_url, _ = pair
    for expected in (1, 2):
        assert train_once(trainer_url) == expected
        assert seeded(sampler_url)["choices"][0]["logprobs"] != seeded(trainer_url)["choices"][0]["logprobs"]  # not yet synced
        status, saved = call(trainer_url, "/weights/save", {})
        assert status == 200 and saved["version"] == expected
        status, loaded = call(sampler_url, "/update_weights_from_disk", {"model_path": saved["path"], "load_format": "auto", "abort_all_requests": False})
        assert status == 200, loaded
        assert loaded["success"] is True and loaded["policy_version"] == expected and saved["path"] in loaded["message"]
        assert call(sampler_url, "/health")[1]["policy_version"] == expected
        ours, theirs = seeded(trainer_url), seeded(sampler_url)
        assert ours["policy_version"] == theirs["policy_version"] == expected
        assert ours["choices"][0]["token_ids"] == theirs["choices"][0]["token_ids"]
        assert ours["choices"][0]["logprobs"] == theirs["choices"][0]["logprobs"]


def test_bad_loads_are_refused_and_leave_the_served_version(pair, tmp_path):
    trainer_url, sampler_url, tmp = pair
    before = call(sampler_url, "/health")[1]["policy_version"]
    other, other_url = start(["--model", "tiny", "--model-config", json.dumps({"d_model": 16, "n_layers": 1, "n_heads": 1, "d_ff": 32})], tmp_path)
    try:
        _, foreign = call(other_url, "/weights/save", {"path": str(tmp_path / "foreign")})
    finally:
        other.terminate()
        other.wait(timeout=10)
    (tmp_path / "empty").mkdir()
    cases = [
        ({"model_path": str(tmp_path / "nowhere")}, "does not exist"),
        ({"model_path": str(tmp_path / "empty")}, "manifest.json is missing"),
        ({"model_path": foreign["path"]}, "another model configuration"),
        ({}, "'model_path' must be"),
        ({"model_path": foreign["path"], "load_format": "safetensors"}, "load_format \"safetensors\" is not supported"),
    ]
    for body, message in cases:
        status, answer = call(sampler_url, "/update_weights_from_disk", body)
        assert status == 400 and answer["success"] is False and message in answer["message"], answer
        assert message in answer["error"]["message"]
    assert call(sampler_url, "/health")[1]["policy_version"] == before


def test_a_read_that_fails_after_the_checks_is_a_500_and_the_weights_stay_whole(tmp_path, monkeypatch):
    """One process reads every file before it changes the model (as every rank does, rank_weights.py):
    an I/O error mid-read is the storage's fault (500, load_error), and the served weights stay."""
    import errno

    import torch

    from ssr_trainer.models import TinyPolicy
    from ssr_trainer.policy_service import PolicyService
    from ssr_trainer.server import ApiError
    from ssr_trainer.tiny_model import TinyConfig
    from ssr_trainer.train import TrainConfig, Trainer

    policy = TinyPolicy(TinyConfig(**json.loads(TINY)))
    service = PolicyService(policy, Trainer(policy, TrainConfig(lr=0.05)), str(tmp_path))
    saved = service.save({"weights_only": True})["path"]
    with torch.no_grad():
        for param in policy.module.parameters():
            param.add_(0.5)  # the weights now differ from the checkpoint's
    before = {k: v.clone() for k, v in policy.module.state_dict().items()}

    def failing_read(*_args, **_kwargs):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(torch, "load", failing_read)
    with pytest.raises(ApiError) as refused:
        service.update_weights_from_disk({"model_path": saved})
    assert refused.value.status == 500 and refused.value.kind == "load_error" and saved in refused.value.message
    assert "Input/output error" in refused.value.message and service.version == 0
    assert all(torch.equal(before[k], v) for k, v in policy.module.state_dict().items())
