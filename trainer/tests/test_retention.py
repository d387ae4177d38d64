"""Checkpoints with a budget (tiny model, CPU): a sampler's export holds the weights only, a
resumable checkpoint adds the optimizer; `keep` deletes the older ones of one kind; a disk that
fills up is answered 507 naming the path, and leaves the previous checkpoints as they were."""

import errno
import gc
import os
import subprocess

import pytest

from conftest import sampled
from ssr_trainer import checkpoint
from ssr_trainer.checkpoint import CheckpointError, load_weights_only, read_manifest
from ssr_trainer.resume import load_checkpoint
from ssr_trainer.models import TinyPolicy
from ssr_trainer.server import ApiError
from ssr_trainer import weights_endpoints
from ssr_trainer.service import PolicyService
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import TrainConfig, Trainer

CONFIG = TinyConfig(d_model=32, n_layers=2, n_heads=2, d_ff=64, seed=1)


def service(output_dir):
    policy = TinyPolicy(CONFIG)
    return PolicyService(policy, Trainer(policy, TrainConfig(lr=1e-3, warmup_steps=0)), str(output_dir))


def train(svc):
    batch = [sampled(svc.policy, "fix it", seed=s, advantage=a, group="g", sample_id=f"s{svc.trainer.version}-{s}", version=svc.trainer.version)
             for s, a in enumerate((1.0, -1.0))]
    svc.train_step({"samples": batch})


def size(path):
    return sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(path) for name in names)


def versions(folder):
    return sorted(int(name[1:]) for name in os.listdir(folder) if name.startswith("v") and name[1:].isdigit())


def test_a_sampler_export_holds_the_weights_only_and_loads_but_does_not_resume(tmp_path):
    svc = service(tmp_path)
    train(svc)
    export = svc.save({"weights_only": True})
    full = svc.save({})
    assert export["path"] == str(tmp_path / "sampler" / "v1") and export["resumable"] is False
    assert full["path"] == str(tmp_path / "v1") and full["resumable"] is True
    assert "training_state.pt" not in os.listdir(export["path"]) and read_manifest(export["path"])["resumable"] is False
    # AdamW keeps two moments per parameter: the resumable checkpoint is about three times the export.
    assert 2.8 < size(full["path"]) / size(export["path"]) < 3.2
    sampler = service(tmp_path / "other")
    assert load_weights_only(export["path"], sampler.policy)["version"] == 1
    with pytest.raises(CheckpointError, match=r"holds no optimizer state to resume from \(a sampler sync's weights-only export\)"):
        load_checkpoint(export["path"], sampler.policy, sampler.trainer)


def test_keep_deletes_all_but_the_newest_of_the_kind_just_written(tmp_path):
    svc = service(tmp_path)
    (tmp_path / "v0-notes").mkdir()
    for _ in range(4):
        train(svc)
        svc.save({"weights_only": True, "keep": 2})
        if svc.trainer.version % 2 == 0:
            answer = svc.save({"keep": 1})
    assert versions(tmp_path / "sampler") == [3, 4]
    assert versions(tmp_path) == [4] and (tmp_path / "v0-notes").is_dir()  # not a checkpoint: never touched
    assert answer["removed"] == [str(tmp_path / "v2")]
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".")]
    resumed = service(tmp_path / "resumed")
    load_checkpoint(str(tmp_path / "v4"), resumed.policy, resumed.trainer)
    assert resumed.trainer.version == 4


@pytest.mark.parametrize("keep", [0, -1, "2", True])
def test_a_bad_keep_is_refused(tmp_path, keep):
    with pytest.raises(ApiError, match="'keep' must be a whole number of checkpoints, at least 1"):
        service(tmp_path).save({"keep": keep})


def assert_full_disk_refused(svc, where):
    with pytest.raises(ApiError) as refused:
        svc.save({"weights_only": True, "keep": 1})
    assert refused.value.status == 507
    assert refused.value.message.startswith(f"no space left to write the checkpoint {where} (")
    assert "Free space on that disk, start the trainer with --output-dir on a larger one, or keep fewer checkpoints" in refused.value.message


def test_a_full_disk_is_answered_507_naming_the_path_and_the_last_export_stays(tmp_path, monkeypatch):
    """The write failure injected where the weights are written (the file system's boundary)."""
    svc = service(tmp_path)
    train(svc)
    svc.save({"weights_only": True, "keep": 1})
    train(svc)

    def disk_full(*_):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(checkpoint.torch, "save", disk_full)
    assert_full_disk_refused(svc, tmp_path / "sampler" / "v2")
    assert sorted(os.listdir(tmp_path / "sampler")) == ["v1"]
    load_weights_only(str(tmp_path / "sampler" / "v1"), service(tmp_path / "x").policy)


def _mount_tmpfs(path, size):
    if os.geteuid() != 0:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True).returncode == 0


@pytest.fixture
def tiny_disk(tmp_path):
    """A real 64 KiB file system (a tmpfs: root only; the injected test above runs everywhere)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if not _mount_tmpfs(disk, "64k"):
        pytest.skip("cannot mount a tmpfs here (not root)")
    yield disk
    subprocess.run(["umount", str(disk)], check=True)


def test_a_disk_too_small_is_refused_before_anything_is_written(tiny_disk):
    svc = service(tiny_disk)
    train(svc)
    assert_full_disk_refused(svc, tiny_disk / "sampler" / "v1")
    assert os.listdir(tiny_disk) == []


def test_a_disk_that_fills_up_mid_save_is_answered_507_and_the_trainer_lives_on(tiny_disk, monkeypatch):
    """As if another writer filled the disk after the space check: a real ENOSPC in torch's own
    write (which, left to torch 1.13, aborts the process from the writer's destructor)."""
    monkeypatch.setattr(weights_endpoints, "check_space", lambda *_: None)
    svc = service(tiny_disk)
    train(svc)
    assert_full_disk_refused(svc, tiny_disk / "sampler" / "v1")
    gc.collect()  # where torch's half-written zip writer used to call std::terminate
    assert os.listdir(tiny_disk / "sampler") == []
    train(svc)  # the service goes on
    assert svc.trainer.version == 2
