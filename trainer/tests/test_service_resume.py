"""`--resume`: a service restarted from a `/weights/save` checkpoint, through the CLI over real HTTP,
continues exactly as the service that saved it (version on every endpoint, warm-up, AdamW, RNG);
a checkpoint it cannot resume from stops the start with the problem named."""

import json
import os
import subprocess
import sys

import pytest
import torch

from conftest import TRAINER_DIR
from ssr_trainer.checkpoint import save_checkpoint
from ssr_trainer.models import TinyPolicy
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import Trainer
from test_service import TINY, call, sample_from, start

ARGS = ["--model", "tiny", "--model-config", TINY, "--lr", "0.01", "--warmup-steps", "4"]


def stop(process):
    process.terminate()
    process.wait(timeout=10)


def pair(base, prompt, version, name):
    """Two samples of one group (advantages +1 / -1) sampled from `base` with fixed seeds."""
    samples = []
    for seed, advantage in ((1, 1.0), (2, -1.0)):
        _, completion = call(base, "/v1/completions", {"prompt": prompt, "max_tokens": 8, "seed": seed + 10 * version})
        samples.append(sample_from(prompt, completion["choices"][0], version, advantage, f"{name}{version}-{seed}"))
    return samples


def saved_tensors(base, path):
    status, saved = call(base, "/weights/save", {"path": path})
    assert status == 200, saved
    state = torch.load(os.path.join(path, "training_state.pt"), map_location="cpu")
    moments = [slot[k] for _, slot in sorted(state["optimizer"]["state"].items()) for k in ("exp_avg", "exp_avg_sq")]
    return list(torch.load(os.path.join(path, "model.pt")).values()) + moments


def test_a_resumed_service_continues_as_the_one_that_saved(tmp_path):
    first, a = start(ARGS, tmp_path / "a")
    try:
        prompt = call(a, "/tokenize", {"messages": [{"role": "user", "content": "Tests fail."}]})[1]["tokens"]
        for version in (0, 1):
            status, step = call(a, "/train/step", {"samples": pair(a, prompt, version, "a"), "expected_version": version})
            assert status == 200 and step["version"] == version + 1
        call(a, "/v1/completions", {"prompt": prompt, "max_tokens": 8})  # unseeded: moves the sampling RNG
        status, saved = call(a, "/weights/save", {})
        assert status == 200 and (saved["version"], saved["steps"], saved["kind"]) == (2, 2, "full")

        second, b = start([*ARGS, "--resume", saved["path"]], tmp_path / "b")
        try:
            assert call(b, "/health")[1]["policy_version"] == 2
            assert call(b, "/v1/models")[1]["data"][0]["policy_version"] == 2
            unseeded = [call(url, "/v1/completions", {"prompt": prompt, "max_tokens": 8})[1] for url in (a, b)]
            assert unseeded[0]["policy_version"] == unseeded[1]["policy_version"] == 2
            assert unseeded[0]["choices"][0]["token_ids"] == unseeded[1]["choices"][0]["token_ids"]  # the RNG was restored

            samples = pair(a, prompt, 2, "c")
            steps = [call(url, "/train/step", {"samples": samples, "expected_version": 2})[1] for url in (a, b)]
            assert steps[0]["version"] == steps[1]["version"] == 3
            assert steps[1]["metrics"]["lr"] == steps[0]["metrics"]["lr"] == pytest.approx(0.01 * 3 / 4)  # warm-up step 2, not 0
            for key in ("loss", "grad_norm", "approx_kl"):
                assert steps[1]["metrics"][key] == pytest.approx(steps[0]["metrics"][key], rel=1e-6, abs=1e-9)
            for x, y in zip(saved_tensors(a, str(tmp_path / "a3")), saved_tensors(b, str(tmp_path / "b3"))):
                assert torch.allclose(x, y, rtol=0, atol=1e-7)
        finally:
            stop(second)
    finally:
        stop(first)


def refusal(args):
    env = dict(os.environ, PYTHONPATH=TRAINER_DIR)
    done = subprocess.run([sys.executable, "-m", "ssr_trainer.service", *args, "--port", "0", "--threads", "1"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1 and "http://" not in done.stdout, done.stdout + done.stderr
    return done.stderr


@pytest.fixture(scope="module")
def checkpoint_dir(tmp_path_factory):
    policy = TinyPolicy(TinyConfig(**json.loads(TINY)))
    path = str(tmp_path_factory.mktemp("resume") / "v0")
    save_checkpoint(policy, Trainer(policy), path)
    return path


def test_resuming_from_a_missing_dir_stops_the_start(tmp_path):
    assert f"cannot resume: checkpoint directory {tmp_path / 'v7'} does not exist" in refusal([*ARGS, "--resume", str(tmp_path / "v7")])


def test_resuming_with_another_model_config_stops_the_start(checkpoint_dir):
    other = json.dumps(dict(json.loads(TINY), d_model=64))
    message = refusal(["--model", "tiny", "--model-config", other, "--resume", checkpoint_dir])
    assert "was saved from another model configuration: config.d_model: checkpoint 32, this service 64" in message


def test_resuming_from_a_partial_checkpoint_stops_the_start(checkpoint_dir, tmp_path):
    partial = tmp_path / "partial"
    partial.mkdir()
    for name in ("model.pt", "tiny_config.json", "training_state.pt"):  # everything but the manifest
        (partial / name).write_bytes(open(os.path.join(checkpoint_dir, name), "rb").read())
    assert "is not a complete checkpoint: manifest.json is missing" in refusal([*ARGS, "--resume", str(partial)])
