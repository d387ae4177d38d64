"""Two processes over gloo, launched by torchrun as a user would (the real service on rank 0, real
HTTP), train the same samples to the same weights as one process (distributed.py)."""

import json
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest
import torch

from conftest import TRAINER_DIR, sampled
from test_service import call, start as start_service

from ssr_trainer.distributed import fsdp_unavailable
from ssr_trainer.models import TinyPolicy
from ssr_trainer.resume import load_checkpoint
from ssr_trainer.samples import parse_samples
from ssr_trainer.service import default_train_config
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import Trainer

TINY = {"d_model": 32, "n_layers": 2, "n_heads": 2, "d_ff": 64, "seed": 1}
OVERRIDES = {"lr": 0.01, "micro_batch_size": 1}
#: one process vs two, max |Δ| over all parameters after two AdamW steps (measured: see trainer/README.md)
TOLERANCE = 1e-5


def batch(policy):
    """Five samples, both roles: five micro-batches of one, so rank 0 runs three and rank 1 two and a stand-in."""
    return [
        sampled(policy, "fix the bug", seed=1, advantage=1.0, group="bug-a", sample_id="s1"),
        sampled(policy, "fix the bug", seed=2, advantage=-1.0, group="bug-a", sample_id="s2"),
        sampled(policy, "another one", max_tokens=20, seed=3, advantage=0.5, group="bug-b", sample_id="s3"),
        sampled(policy, "inject", max_tokens=7, seed=4, advantage=-0.25, role="injector", group="repo/strategy", sample_id="i1"),
        sampled(policy, "inject", max_tokens=16, seed=5, advantage=0.25, role="injector", group="repo/strategy", sample_id="i2"),
    ]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(mode, tmp_path, *extra, truncated_on_rank_1=None, reshaped_on_rank_1=None, copy_fails_on_rank_1=None):
    """Two ranks with the environment torchrun gives its workers. (Not torchrun itself: Debian's
    torch 1.13 torchrun fails on Python 3.11 unless given --redirects and --tee, see trainer/README.md.)
    `truncated_on_rank_1`: a directory whose files rank 1 reads cut short (truncated_reads.py);
    `reshaped_on_rank_1`: one whose weights rank 1 reads with a tensor a row short (the same);
    `copy_fails_on_rank_1`: one whose weights rank 1 reads whole but fails to copy in halfway (the same)."""
    port = str(free_port())
    flags = ["--model", "tiny", "--model-config", json.dumps(TINY), "--parallel", mode, "--train-config", json.dumps(OVERRIDES),
             "--port", "0", "--threads", "1", "--output-dir", str(tmp_path), *extra]
    processes = []
    for rank in (1, 0):
        env = dict(os.environ, PYTHONPATH=TRAINER_DIR, OMP_NUM_THREADS="1", WORLD_SIZE="2", RANK=str(rank), LOCAL_RANK=str(rank),
                   LOCAL_WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT=port)
        command = [sys.executable, "-m", "ssr_trainer.service"]
        if rank == 1 and truncated_on_rank_1:
            env["SSR_TEST_TRUNCATED_UNDER"] = str(truncated_on_rank_1)
            if reshaped_on_rank_1:
                env["SSR_TEST_RESHAPED_UNDER"] = str(reshaped_on_rank_1)
            if copy_fails_on_rank_1:
                env["SSR_TEST_COPY_FAILS_UNDER"] = str(copy_fails_on_rank_1)
            command = [sys.executable, os.path.join(TRAINER_DIR, "tests", "truncated_reads.py")]
        with open(tmp_path / f"rank{rank}.log", "w") as log:
            processes.append(subprocess.Popen([*command, *flags], stdout=log, stderr=subprocess.STDOUT, text=True, env=env))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and all(p.poll() is None for p in processes):
        started = [line for line in (tmp_path / "rank0.log").read_text().splitlines() if line.startswith("ssr-trainer: serving")]
        if started:
            return processes, started[0].rsplit(" ", 1)[-1]
        time.sleep(0.1)
    stop(processes)
    raise AssertionError("rank 0 did not start serving:\n" + logs(tmp_path))


def logs(tmp_path):
    return "\n".join(f"--- rank {r}:\n" + (tmp_path / f"rank{r}.log").read_text() for r in (0, 1))


def stop(processes):
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(timeout=30)


def reference(samples, steps, dtype=None):
    """One process, the same flags: the weights and metrics after each step (and the trainer)."""
    policy = TinyPolicy(TinyConfig(**TINY), dtype=dtype)
    trainer = Trainer(policy, default_train_config(policy).with_overrides(OVERRIDES))
    weights, metrics = [], []
    for _ in range(steps):
        metrics.append(trainer.step(parse_samples(samples)))
        weights.append({k: v.clone() for k, v in policy.module.state_dict().items()})
    return weights, metrics, trainer


def train(mode, tmp_path, samples, steps, save_as, *extra, then=None, truncated_on_rank_1=None, reshaped_on_rank_1=None, copy_fails_on_rank_1=None):
    """A two-rank job: `steps` /train/steps over HTTP, then /weights/save; the answers and the saved
    weights. `then(base)`: more requests before the job stops."""
    processes, base = launch(mode, tmp_path, *extra, truncated_on_rank_1=truncated_on_rank_1, reshaped_on_rank_1=reshaped_on_rank_1,
                             copy_fails_on_rank_1=copy_fails_on_rank_1)
    try:
        assert call(base, "/health")[1]["parallel"] == {"mode": mode, "world_size": 2}
        answers = []
        for _ in range(steps):
            status, answer = call(base, "/train/step", {"samples": samples})
            assert status == 200, (answer, logs(tmp_path))
            answers.append(answer)
        status, saved = call(base, "/weights/save", {"path": str(tmp_path / save_as)})
        assert status == 200, (saved, logs(tmp_path))
        if then:
            then(base)
    finally:
        stop(processes)
    return answers, saved, torch.load(os.path.join(saved["path"], "model.pt"), weights_only=True)


def weights(path):
    return torch.load(os.path.join(path, "model.pt"), weights_only=True)


def max_diff(a, b):
    return max(float((a[k] - b[k]).abs().max()) for k in b)


@pytest.mark.parametrize("mode", ["ddp", pytest.param("fsdp", marks=pytest.mark.skipif(bool(fsdp_unavailable()), reason=str(fsdp_unavailable())))])
def test_two_processes_make_the_update_one_process_makes(mode, tmp_path):
    start = TinyPolicy(TinyConfig(**TINY))
    samples = batch(start)
    answers, saved, trained = train(mode, tmp_path, samples, 2, "v2")
    assert saved["version"] == 2
    expected, metrics, alone = reference(samples, 3)
    moved, diff = max_diff(expected[1], start.module.state_dict()), max_diff(trained, expected[1])
    print(f"{mode}: max |one process - two processes| = {diff:.3e} after 2 steps; the steps moved weights by up to {moved:.3g}")
    assert moved > 100 * TOLERANCE  # the steps did move the weights
    assert diff <= TOLERANCE
    for answer, ours in zip(answers, metrics[:2]):
        theirs = answer["metrics"]
        assert theirs["parallel"] == {"mode": mode, "world_size": 2, "micro_batches": [3, 2]}
        assert theirs["samples"] == ours["samples"] and theirs["tokens"] == ours["tokens"]
        assert theirs["loss"] == pytest.approx(ours["loss"], rel=1e-5, abs=1e-7)
        assert theirs["grad_norm"] == pytest.approx(ours["grad_norm"], rel=1e-5)
        # Each role's share of the reduced gradient, as one process measures it (not 0).
        for role in ("solver", "injector"):
            assert ours["roles"][role]["grad_norm"] > 0
            assert theirs["roles"][role]["grad_norm"] == pytest.approx(ours["roles"][role]["grad_norm"], rel=1e-5)
    # Sampler sync from rank 0: a separate single-process sampler loads what rank 0 saved, as after any step.
    sampler, sampler_url = start_service(["--model", "tiny", "--model-config", json.dumps(TINY)], tmp_path)
    try:
        status, loaded = call(sampler_url, "/update_weights_from_disk", {"model_path": saved["path"]})
        assert status == 200 and loaded["policy_version"] == 2, loaded
    finally:
        sampler.terminate()
        sampler.wait(timeout=30)
    if mode == "fsdp":  # its optimizer state is keyed by name: one process resumes it too (fsdp_state.by_position)
        _, _, resumed = reference(samples, 0)
        load_checkpoint(saved["path"], resumed.policy, resumed)
        resumed.step(parse_samples(samples))
        print(f"fsdp: one process resumed from the FSDP checkpoint, after a third step max |Δ| = {max_diff(resumed.policy.module.state_dict(), expected[2]):.3e}")
        assert resumed.version == 3 and max_diff(resumed.policy.module.state_dict(), expected[2]) <= TOLERANCE

    def reload_and_step(base):
        """/update_weights_from_disk loads v2 into every rank: the next step trains from it everywhere (rank_weights.py)."""
        status, loaded = call(base, "/update_weights_from_disk", {"model_path": str(tmp_path / "v2")})
        assert status == 200 and loaded["policy_version"] == 2 and call(base, "/health")[1]["policy_version"] == 2, (loaded, logs(tmp_path))
        status, refused = call(base, "/update_weights_from_disk", {"model_path": str(tmp_path / "nowhere")})
        assert status == 400 and "does not exist" in refused["message"], refused
        assert call(base, "/train/step", {"samples": samples})[0] == 200
        assert call(base, "/weights/save", {"path": str(tmp_path / "v2-reloaded-stepped")})[0] == 200
        # A checkpoint both ranks check (sizes, sha256), which rank 1 then reads cut short: all or none (rank_weights.py).
        shutil.copytree(tmp_path / "v2", truncated)
        status, refused = call(base, "/update_weights_from_disk", {"model_path": str(truncated)})
        assert status == 500 and refused["success"] is False, (refused, logs(tmp_path))
        assert "rank 1 of 2" in refused["message"] and str(truncated) in refused["message"] and "keep their weights at version 3" in refused["message"]
        assert call(base, "/health")[1]["policy_version"] == 3
        # One rank 1 reads whole but with a tensor of another shape: refused before any rank copies a
        # tensor in (check_staged), where rank 0 used to load it and rank 1 to copy the tensors that fit.
        shutil.copytree(tmp_path / "v2", reshaped)
        status, refused = call(base, "/update_weights_from_disk", {"model_path": str(reshaped)})
        assert status == 400 and refused["success"] is False, (refused, logs(tmp_path))
        assert "rank 1 of 2" in refused["message"] and "do not fit the model" in refused["message"], refused
        assert "keep their weights at version 3" in refused["message"] and call(base, "/health")[1]["policy_version"] == 3
        assert call(base, "/weights/save", {"path": str(tmp_path / "after-failed-load")})[0] == 200
        # Rank 1 kept its weights too: the next step's reduced gradient is one process's from the same weights.
        assert call(base, "/train/step", {"samples": samples})[0] == 200
        assert call(base, "/weights/save", {"path": str(tmp_path / "after-failed-load-stepped")})[0] == 200
        # Last (nothing trains after it): rank 1's copy-in fails halfway (out of memory) after rank 0 copied all.
        # The ranks agree after the copy too, and then refuse everything with the rank, the failure and the way out.
        shutil.copytree(tmp_path / "v2", copy_fails)
        status, refused = call(base, "/update_weights_from_disk", {"model_path": str(copy_fails)})
        assert status == 500 and refused["success"] is False and refused["error"]["type"] == "trainer_ranks_apart", (refused, logs(tmp_path))
        for needed in ("rank 1 of 2", "CUDA out of memory", str(copy_fails), "restart the job from the last checkpoint", "--resume"):
            assert needed in refused["message"], (needed, refused)
        status, health = call(base, "/health")
        assert status == 503 and health["status"] == "ranks_apart" and health["error"]["message"] == refused["message"], health
        for route, body in (("/train/step", {"samples": samples}), ("/weights/save", {"path": str(tmp_path / "apart")}),
                            ("/weights/save", {"weights_only": True}), ("/update_weights_from_disk", {"model_path": str(tmp_path / "v2")})):
            status, answer = call(base, route, body)
            assert status == 500 and answer["error"]["message"] == refused["message"], (route, answer)
        assert not (tmp_path / "apart").exists()

    # A resumed two-rank job continues as the one process does (weights, AdamW moments, version).
    truncated, reshaped = tmp_path / "v2-truncated-on-rank-1", tmp_path / "v2-reshaped-on-rank-1"
    copy_fails = tmp_path / "v2-copy-fails-on-rank-1"
    answers, saved, trained = train(mode, tmp_path, samples, 1, "v3", "--resume", saved["path"], then=reload_and_step,
                                    truncated_on_rank_1=truncated, reshaped_on_rank_1=reshaped, copy_fails_on_rank_1=copy_fails)
    assert saved["version"] == 3 and answers[0]["metrics"]["loss"] == pytest.approx(metrics[2]["loss"], rel=1e-5, abs=1e-7)
    print(f"{mode}: after a resume and a third step, max |one process - two processes| = {max_diff(trained, expected[2]):.3e}")
    assert max_diff(trained, expected[2]) <= TOLERANCE
    alone.load_weights(str(tmp_path / "v2"))
    alone.step(parse_samples(samples))
    reloaded = weights(tmp_path / "v2-reloaded-stepped")
    print(f"{mode}: v2 reloaded into both ranks, then a step: max |one process - two processes| = {max_diff(reloaded, alone.policy.module.state_dict()):.3e}")
    assert max_diff(reloaded, alone.policy.module.state_dict()) <= TOLERANCE
    # The loads that failed on rank 1 changed no rank: rank 0's weights are bit for bit those before them,
    # and the next step (rank 1's gradient reduced with rank 0's) is the one process's from them.
    assert max_diff(weights(tmp_path / "after-failed-load"), reloaded) == 0.0
    alone.step(parse_samples(samples))
    stepped = weights(tmp_path / "after-failed-load-stepped")
    print(f"{mode}: a load that failed on rank 1, then a step: max |one process - two processes| = {max_diff(stepped, alone.policy.module.state_dict()):.3e}")
    assert max_diff(stepped, alone.policy.module.state_dict()) <= TOLERANCE


@pytest.mark.skipif(not fsdp_unavailable(), reason="this torch runs FSDP")
def test_fsdp_where_it_cannot_run_is_refused_with_the_reason(tmp_path):
    """Before waiting for any other rank: FSDP on a torch without it."""
    env = dict(os.environ, PYTHONPATH=TRAINER_DIR, WORLD_SIZE="2", RANK="0", LOCAL_RANK="0", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()))
    done = subprocess.run([sys.executable, "-m", "ssr_trainer.service", "--model", "tiny", "--parallel", "fsdp", "--device", "cpu", "--port", "0"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode != 0
    assert "--parallel fsdp: torch" in done.stderr and "use --parallel ddp" in done.stderr, done.stderr


@pytest.mark.skipif(bool(fsdp_unavailable()), reason=str(fsdp_unavailable()))
def test_fsdp_in_bf16_resumes_from_its_fp32_masters(tmp_path):
    """An FSDP checkpoint in bf16 holds bf16 weights (what the sampler serves) and the fp32 masters;
    a resume continues from the masters as if the job never stopped."""
    samples = batch(TinyPolicy(TinyConfig(**TINY)))

    def third_step(base):
        assert call(base, "/train/step", {"samples": samples})[0] == 200
        assert call(base, "/weights/save", {"path": str(tmp_path / "v3-uninterrupted")})[0] == 200

    train("fsdp", tmp_path, samples, 2, "v2", "--dtype", "bfloat16", then=third_step)
    _, saved, resumed = train("fsdp", tmp_path, samples, 1, "v3", "--dtype", "bfloat16", "--resume", str(tmp_path / "v2"))

    def masters(path):
        return torch.load(os.path.join(path, "training_state.pt"), weights_only=False)["precision"]["masters"]

    ours, theirs = masters(tmp_path / "v3"), masters(tmp_path / "v3-uninterrupted")
    gap = max(float((a - b).abs().max()) for a, b in zip(ours, theirs))
    moved = max(float((a - b).abs().max()) for a, b in zip(theirs, masters(tmp_path / "v2")))
    print(f"fsdp bf16: resumed vs uninterrupted, max |Δ| over the fp32 masters after a third step = {gap:.3e} (the step moved them by up to {moved:.3g})")
    assert ours[0].dtype == torch.float32 and moved > 100 * TOLERANCE and gap <= TOLERANCE
    assert max_diff(resumed, weights(tmp_path / "v3-uninterrupted")) == 0.0  # the bf16 weights the sampler loads, bit for bit


@pytest.mark.skipif(int(torch.__version__.split(".")[0]) < 2, reason=f"gloo in torch {torch.__version__} cannot reduce bfloat16 tensors")
def test_ddp_in_bf16_with_fp32_masters_makes_the_update_one_process_makes(tmp_path):
    """precision.py moves each backward's gradients into fp32 masters, so DDP must reduce every
    micro-batch (not only the last): the masters then follow one process's."""
    samples = batch(TinyPolicy(TinyConfig(**TINY)))
    answers, saved, trained = train("ddp", tmp_path, samples, 2, "v2", "--dtype", "bfloat16")
    expected, metrics, trainer = reference(samples, 2, torch.bfloat16)
    state = torch.load(os.path.join(saved["path"], "training_state.pt"), weights_only=False)
    masters = state["precision"]["masters"]
    assert state["precision"]["master_weights"] == "fp32" and len(masters) == len(trainer.precision.pairs)
    gaps = torch.cat([(ours - theirs.detach()).abs().flatten() for ours, (_, theirs) in zip(masters, trainer.precision.pairs)])
    median, wide = float(gaps.median()), float((gaps > 0.1 * OVERRIDES["lr"]).float().mean())
    same = sum(int((trained[k] == expected[1][k]).sum()) for k in trained) / sum(v.numel() for v in trained.values())
    print(f"ddp bf16: |one process - two processes| over the fp32 masters: median {median:.2e}, {wide:.2%} above lr/10; bf16 weights equal: {same:.1%}")
    # AdamW's first steps move a weight by ~lr whatever its gradient's size, so a bf16-rounded gradient
    # near 0 may flip an update: judged on the whole distribution (measured: median 8e-6, 0.9 % above
    # lr/10; reducing only the last micro-batch: median 3.5e-3, 68 %).
    assert median <= 0.01 * OVERRIDES["lr"] and wide <= 0.03
    assert answers[1]["metrics"]["loss"] == pytest.approx(metrics[1]["loss"], rel=1e-3, abs=1e-4)
