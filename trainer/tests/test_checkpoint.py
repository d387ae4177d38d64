"""Resumable checkpoints (tiny model, CPU): a trainer saved after k steps and restarted from its
checkpoint ends where one that never stopped ends (weights, AdamW moments, warm-up, version, RNG);
partial, corrupt and mismatched checkpoints are refused with the problem named."""

import dataclasses
import json
import os
import random
import subprocess
import sys

import pytest
import torch

from conftest import TRAINER_DIR, sampled
from ssr_trainer import checkpoint
from ssr_trainer.checkpoint import CheckpointError, save_checkpoint
from ssr_trainer.resume import load_checkpoint
from ssr_trainer.models import TinyPolicy
from ssr_trainer.server import ApiError
from ssr_trainer.service import PolicyService
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import TrainConfig, Trainer

CONFIG = TinyConfig(d_model=32, n_layers=2, n_heads=2, d_ff=64, seed=1)
TRAIN = TrainConfig(lr=3e-3, warmup_steps=4)  # k = 2 < 4: the resume lands mid warm-up
STEPS, SAVED_AT = 6, 2


def fresh(config=CONFIG):
    policy = TinyPolicy(dataclasses.replace(config))
    return policy, Trainer(policy, TRAIN)


@pytest.fixture(scope="module")
def batches():
    """One batch per step, sampled at version 0 (lag at most 5: nothing is stale)."""
    policy = TinyPolicy(CONFIG)
    return [[sampled(policy, "fix it", seed=10 * i + j, advantage=a, group=f"g{i}", sample_id=f"s{i}-{j}")
             for j, a in enumerate((1.0, -1.0, 0.5))] for i in range(STEPS)]


def weights(policy):
    return [p.detach().clone() for p in policy.module.parameters()]


def adam_state(trainer):
    """Per parameter, in order: AdamW's step, first and second moments."""
    return [{k: v.clone() for k, v in trainer.optimizer.state[p].items()} for p in trainer.params]


def assert_same_adam(a, b):
    assert len(a) == len(b) and all(s for s in a)
    for x, y in zip(a, b):
        assert set(x) == set(y) == {"step", "exp_avg", "exp_avg_sq"}
        assert all(torch.equal(x[k], y[k]) for k in x)


@pytest.fixture(scope="module")
def uninterrupted(batches):
    policy, trainer = fresh()
    metrics = [trainer.step(batch) for batch in batches]
    return weights(policy), adam_state(trainer), metrics


@pytest.fixture
def saved(tmp_path, batches):
    """A trainer after SAVED_AT steps and its checkpoint."""
    policy, trainer = fresh()
    for batch in batches[:SAVED_AT]:
        trainer.step(batch)
    save_checkpoint(policy, trainer, str(tmp_path / "ckpt"))
    return str(tmp_path / "ckpt"), trainer


def test_a_resumed_trainer_ends_where_an_uninterrupted_one_does(saved, batches, uninterrupted):
    path, before = saved
    policy, trainer = fresh()
    load_checkpoint(path, policy, trainer)
    assert (trainer.version, trainer.steps) == (SAVED_AT, SAVED_AT)
    assert_same_adam(adam_state(trainer), adam_state(before))
    later = [trainer.step(batch) for batch in batches[SAVED_AT:]]
    final_weights, final_adam, metrics = uninterrupted
    assert [m["version"] for m in later] == [m["version"] for m in metrics[SAVED_AT:]] == list(range(SAVED_AT + 1, STEPS + 1))
    assert [m["lr"] for m in later] == [m["lr"] for m in metrics[SAVED_AT:]]  # the warm-up went on from step SAVED_AT
    assert later[0]["lr"] < TRAIN.lr
    for a, b in zip(weights(policy), final_weights):
        assert torch.allclose(a, b, rtol=0, atol=1e-7)
    assert_same_adam(adam_state(trainer), final_adam)


def test_the_weights_alone_do_not_resume_training(saved, batches, uninterrupted):
    """What a weights-only restart did before: the same check, failing (so the one above can fail)."""
    path, _ = saved
    policy, trainer = fresh()
    policy.load_weights(path)
    trainer.version = SAVED_AT
    for batch in batches[SAVED_AT:]:
        trainer.step(batch)
    assert not all(torch.allclose(a, b, rtol=0, atol=1e-5) for a, b in zip(weights(policy), uninterrupted[0]))


def test_the_manifest_says_what_the_checkpoint_is(saved):
    path, _ = saved
    manifest = json.load(open(os.path.join(path, "manifest.json")))
    assert (manifest["version"], manifest["steps"]) == (SAVED_AT, SAVED_AT)
    assert manifest["model"]["kind"] == "tiny" and manifest["model"]["weights"] == "full"
    assert manifest["model"]["config"]["d_model"] == 32 and manifest["train_config"]["warmup_steps"] == 4
    assert manifest["created"].endswith("Z")
    assert set(manifest["files"]) == {"model.pt", "tiny_config.json", "training_state.pt"}
    assert sorted(os.listdir(os.path.dirname(path))) == ["ckpt"]  # no temporary dir left behind


def test_the_rng_goes_on_from_the_save(tmp_path):
    policy, trainer = fresh()
    torch.rand(7)
    save_checkpoint(policy, trainer, str(tmp_path / "ckpt"))
    expected = torch.rand(3), random.random()
    torch.manual_seed(12345)
    random.seed(6)
    load_checkpoint(str(tmp_path / "ckpt"), *fresh())
    assert torch.equal(torch.rand(3), expected[0]) and random.random() == expected[1]


def _truncate(name):
    def damage(path):
        full = os.path.join(path, name)
        with open(full, "r+b") as handle:
            handle.truncate(os.path.getsize(full) // 2)
    return damage


def _flip_a_byte(path):
    full = os.path.join(path, "model.pt")
    data = bytearray(open(full, "rb").read())
    data[len(data) // 2] ^= 0xFF
    open(full, "wb").write(bytes(data))


@pytest.mark.parametrize("damage, message", [
    (lambda path: os.remove(os.path.join(path, "manifest.json")), "not a complete checkpoint: manifest.json is missing"),
    (lambda path: open(os.path.join(path, "manifest.json"), "w").write('{"format": '), "cannot be read as JSON"),
    (lambda path: os.remove(os.path.join(path, "training_state.pt")), "is incomplete: training_state.pt is missing"),
    (_truncate("training_state.pt"), "training_state.pt has"),
    (_truncate("model.pt"), "the file is truncated or was replaced"),
    (_flip_a_byte, "model.pt is corrupt"),
], ids=["no-manifest", "manifest-not-json", "no-training-state", "truncated-state", "truncated-weights", "corrupt-weights"])
def test_a_damaged_checkpoint_is_refused_and_nothing_is_loaded(saved, damage, message):
    path, _ = saved
    damage(path)
    policy, trainer = fresh()
    initial = weights(policy)
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint(path, policy, trainer)
    assert trainer.version == 0 and trainer.steps == 0 and not trainer.optimizer.state
    assert all(torch.equal(a, b) for a, b in zip(weights(policy), initial))


def _reshaped_weights(path):
    """model.pt re-saved with its last tensor a row short, the manifest's table made to match: every
    check before the read passes, as when the file was written by a differently built model."""
    full = os.path.join(path, "model.pt")
    state = torch.load(full, weights_only=True)
    last = list(state)[-1]
    state[last] = state[last][:-1].clone()
    torch.save(state, full)
    manifest_path = os.path.join(path, "manifest.json")
    manifest = json.load(open(manifest_path))
    manifest["files"] = {name: entry for name, entry in checkpoint._file_table(path).items() if name != "manifest.json"}
    json.dump(manifest, open(manifest_path, "w"))
    return last


def test_weights_of_another_shape_are_refused_before_any_tensor_is_copied(saved):
    """torch's load_state_dict copies every tensor that fits before it raises on one that does not:
    the staged weights are checked first (check_staged), so a refused load changes nothing."""
    path, _ = saved
    last = _reshaped_weights(path)
    policy, trainer = fresh()
    initial = weights(policy)
    with pytest.raises(CheckpointError, match=f"do not fit the model: {last} has shape"):
        load_checkpoint(path, policy, trainer)
    assert trainer.version == 0
    assert all(torch.equal(a, b) for a, b in zip(weights(policy), initial))


def test_a_missing_dir_is_refused(tmp_path):
    with pytest.raises(CheckpointError, match=f"checkpoint directory {tmp_path / 'nope'} does not exist"):
        load_checkpoint(str(tmp_path / "nope"), *fresh())


def test_a_checkpoint_of_another_model_config_is_refused(saved):
    path, _ = saved
    policy, trainer = fresh(dataclasses.replace(CONFIG, d_model=48, seed=2))
    expected = "another model configuration: config.d_model: checkpoint 32, this service 48; config.seed: checkpoint 1, this service 2"
    with pytest.raises(CheckpointError, match=expected):
        load_checkpoint(path, policy, trainer)
    assert trainer.version == 0


def test_optimizer_state_of_other_shapes_is_refused():
    _, small = fresh()
    _, wide = fresh(dataclasses.replace(CONFIG, d_ff=96))
    state = small.state_dict()
    for index, p in enumerate(small.params):  # moments as AdamW's first step leaves them
        state["optimizer"]["state"][index] = {"step": torch.tensor(1.0), "exp_avg": torch.zeros_like(p), "exp_avg_sq": torch.zeros_like(p)}
    with pytest.raises(ValueError, match=r"the optimizer state's exp_avg of parameter \d+ has shape \(64, 32\), the parameter \(96, 32\)"):
        wide.load_state_dict(state)
    assert wide.steps == 0 and not wide.optimizer.state


def test_a_save_that_fails_midway_leaves_the_previous_checkpoint(saved, monkeypatch, batches):
    path, trainer = saved
    trainer.step(batches[SAVED_AT])

    def interrupted(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(checkpoint, "_write_manifest", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(trainer.policy, trainer, path)
    assert sorted(os.listdir(os.path.dirname(path))) == ["ckpt"]
    assert json.load(open(os.path.join(path, "manifest.json")))["version"] == SAVED_AT
    monkeypatch.undo()
    save_checkpoint(trainer.policy, trainer, path)  # a complete save replaces it
    policy, resumed = fresh()
    load_checkpoint(path, policy, resumed)
    assert resumed.version == SAVED_AT + 1


KILLED_MID_SAVE = """
import os, signal, sys
sys.path.insert(0, {trainer!r})
from ssr_trainer import checkpoint
from ssr_trainer.models import TinyPolicy
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import Trainer
checkpoint._write_manifest = lambda *_: os.kill(os.getpid(), signal.SIGKILL)  # weights and state are written by now
policy = TinyPolicy(TinyConfig(d_model=32, n_layers=2, n_heads=2, d_ff=64, seed=1))
checkpoint.save_checkpoint(policy, Trainer(policy), {path!r})
"""


def test_a_kill_mid_save_leaves_no_checkpoint_a_resume_would_load(tmp_path):
    path = str(tmp_path / "v0")
    done = subprocess.run([sys.executable, "-c", KILLED_MID_SAVE.format(trainer=TRAINER_DIR, path=path)], capture_output=True, timeout=120)
    assert done.returncode == -9, done.stderr
    (partial,) = os.listdir(tmp_path)
    assert partial.startswith(".v0.partial-") and "training_state.pt" in os.listdir(tmp_path / partial)
    with pytest.raises(CheckpointError, match="does not exist"):
        load_checkpoint(path, *fresh())
    with pytest.raises(CheckpointError, match="manifest.json is missing"):
        load_checkpoint(str(tmp_path / partial), *fresh())
    # The next save there removes the dead writer's leftover, and leaves a live writer's alone.
    live = tmp_path / f".v1.partial-{os.getpid()}-cafe0000"
    live.mkdir()
    policy, trainer = fresh()
    save_checkpoint(policy, trainer, path)
    assert sorted(os.listdir(tmp_path)) == sorted(["v0", live.name])


def test_saving_over_a_directory_that_is_no_checkpoint_is_refused(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "keep.txt").write_text("mine")
    policy, trainer = fresh()
    service = PolicyService(policy, trainer, output_dir=str(tmp_path))
    with pytest.raises(ApiError, match="exists and is not a checkpoint") as error:
        service.save({"path": str(tmp_path / "notes")})
    assert error.value.status == 400 and os.listdir(tmp_path / "notes") == ["keep.txt"]
    assert service.save({})["path"] == str(tmp_path / "v0")
