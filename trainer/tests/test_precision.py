"""bf16 training through fp32 master weights (precision.py), on CPU: at RL's learning rates a step
updates as many trained values as fp32 does, K steps follow fp32's loss, and without masters
(`--master-weights none`) both fail, which is the rounding problem the masters fix."""

import os
import subprocess
import sys

import pytest
import torch

from conftest import TRAINER_DIR, sampled
from ssr_trainer.checkpoint import save_checkpoint
from ssr_trainer.resume import load_checkpoint
from ssr_trainer.models import TinyPolicy
from ssr_trainer.service import PolicyService
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import TrainConfig, Trainer

CONFIG = TinyConfig(d_model=32, n_layers=2, n_heads=2, d_ff=64, seed=1)
#: fp32's own share of changed values is ~0.8 (some embeddings get no gradient); bf16 with masters measured 1.0x of it
MASTERS_AT_LEAST = 0.95
#: bf16 without masters measured 0.03x (1e-6) and 0.05x (3e-6) of fp32's share
WITHOUT_MASTERS_AT_MOST = 0.25
K, K_LR = 10, 1e-5
#: bf16 weights move in steps of their spacing (a master crosses a rounding boundary after several
#: updates), so the bf16 loss follows fp32's as a staircase: every step's loss within 0.4 of fp32's
#: total drop over K steps (measured max 0.25), on average within 0.2 (measured 0.10), and the total drop
#: within 20 % of fp32's (measured 0.2 %). Without masters: 0.22 of the drop, mean gap 0.39.
STEP_TOLERANCE, MEAN_TOLERANCE, DROP_TOLERANCE = 0.4, 0.2, 0.2


@pytest.fixture(scope="module")
def samples():
    ref = TinyPolicy(CONFIG)
    return [sampled(ref, "fix the bug", max_tokens=12, seed=s, advantage=1.0 if s % 2 else -1.0, group="g") for s in range(4)]


def trainer(dtype, master_weights="fp32", lr=3e-6):
    return Trainer(TinyPolicy(CONFIG, dtype=dtype), TrainConfig(lr=lr, warmup_steps=0, max_staleness=100), master_weights=master_weights)


def changed_share(trainer_, samples):
    """The share of trained values (the masters where there are some) that one step changed."""
    before = [p.detach().clone() for p in trainer_.params]
    trainer_.step(samples)
    return sum(int((a != b).sum()) for a, b in zip(before, trainer_.params)) / sum(a.numel() for a in before)


@pytest.mark.parametrize("lr", [1e-6, 3e-6])
def test_a_bf16_step_changes_as_many_trained_values_as_fp32(samples, lr):
    fp32 = changed_share(trainer(None, lr=lr), samples)
    masters = trainer(torch.bfloat16, lr=lr)
    with_masters = changed_share(masters, samples)
    without = changed_share(trainer(torch.bfloat16, "none", lr=lr), samples)
    print(f"lr {lr}: changed share fp32 {fp32:.3f}, bf16 + fp32 masters {with_masters:.3f}, bf16 without masters {without:.3f}")
    assert fp32 > 0.5
    assert with_masters >= MASTERS_AT_LEAST * fp32
    assert without <= WITHOUT_MASTERS_AT_MOST * fp32  # the rounding problem, reproduced
    # What the model (and so the sampler and a save) holds is the masters cast to bf16.
    model = masters.policy.trainable_parameters()
    assert all(p.dtype == torch.bfloat16 and m.dtype == torch.float32 for p, m in zip(model, masters.params))
    assert all(torch.equal(p, m.to(torch.bfloat16)) for p, m in zip(model, masters.params))
    state = masters.optimizer.state[masters.params[0]]
    assert state["exp_avg"].dtype == state["exp_avg_sq"].dtype == torch.float32


def losses(trainer_, samples):
    return [trainer_.step(samples)["loss"] for _ in range(K + 1)]  # loss k: measured after k updates


def test_k_bf16_steps_follow_the_fp32_loss_and_without_masters_they_do_not(samples):
    fp32 = losses(trainer(None, lr=K_LR), samples)
    bf16 = losses(trainer(torch.bfloat16, lr=K_LR), samples)
    none = losses(trainer(torch.bfloat16, "none", lr=K_LR), samples)
    drop = fp32[0] - fp32[-1]
    print(f"loss over {K} steps at lr {K_LR}: fp32 {fp32}\n  bf16 + masters {bf16}\n  bf16 none {none}")
    assert drop > 0
    gaps = [abs(b - f) / drop for b, f in zip(bf16, fp32)]
    print(f"  bf16 + masters: largest gap {max(gaps):.3f}, mean {sum(gaps) / len(gaps):.3f}, drop {(bf16[0] - bf16[-1]) / drop:.3f} of fp32's")
    print(f"  bf16 none: mean gap {sum(abs(n - f) for n, f in zip(none, fp32)) / len(none) / drop:.3f}, drop {(none[0] - none[-1]) / drop:.3f} of fp32's")
    assert max(gaps) <= STEP_TOLERANCE and sum(gaps) / len(gaps) <= MEAN_TOLERANCE, (fp32, bf16)
    assert abs((bf16[0] - bf16[-1]) / drop - 1) <= DROP_TOLERANCE
    assert abs((none[0] - none[-1]) / drop - 1) > DROP_TOLERANCE  # measured 0.22 of the drop: most updates rounded away


def test_a_resumed_bf16_trainer_keeps_its_fp32_masters(samples, tmp_path):
    """The checkpoint holds the masters: a resume continues from them, not from the bf16 weights."""
    first = trainer(torch.bfloat16, lr=K_LR)
    for _ in range(3):
        first.step(samples)
    save_checkpoint(first.policy, first, str(tmp_path / "v3"))
    saved = torch.load(str(tmp_path / "v3" / "model.pt"))  # what a separate sampler loads: the masters, cast
    named = dict(first.policy.module.named_parameters())
    assert all(torch.equal(saved[name], m.to(torch.bfloat16)) for name, m in zip(named, first.params))
    resumed = trainer(torch.bfloat16, lr=K_LR)
    load_checkpoint(str(tmp_path / "v3"), resumed.policy, resumed)
    assert all(torch.equal(a, b) for a, b in zip(first.params, resumed.params))
    assert any(not torch.equal(m, p.float()) for m, p in zip(resumed.params, resumed.policy.trainable_parameters()))  # not rounded
    for _ in range(2):
        first.step(samples)
        resumed.step(samples)
    assert all(torch.equal(a, b) for a, b in zip(first.params, resumed.params))
    assert all(torch.equal(a, b) for a, b in zip(first.policy.trainable_parameters(), resumed.policy.trainable_parameters()))


def test_fp16_without_masters_is_refused_with_the_fix():
    with pytest.raises(ValueError, match="--master-weights fp32"):
        trainer(torch.float16, "none")


def test_an_fp32_model_has_no_copy():
    t = trainer(None)
    assert not t.precision.enabled
    assert all(a is b for a, b in zip(t.params, t.policy.trainable_parameters()))


def test_the_service_refuses_fp16_without_masters_naming_the_flag(tmp_path):
    env = dict(os.environ, PYTHONPATH=TRAINER_DIR)
    done = subprocess.run([sys.executable, "-m", "ssr_trainer.service", "--model", "tiny", "--dtype", "float16", "--master-weights", "none",
                           "--port", "0", "--output-dir", str(tmp_path)], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1
    assert "--dtype float16 --master-weights none: float16 training needs --master-weights fp32" in done.stderr


def test_weights_loaded_from_disk_become_the_masters(samples, tmp_path):
    """A service that loads another's checkpoint (/update_weights_from_disk) and then trains starts
    from the loaded weights: its masters are reset from them, not left at its own old values."""
    source = trainer(torch.bfloat16, lr=K_LR)
    for _ in range(3):
        source.step(samples)
    save_checkpoint(source.policy, source, str(tmp_path / "v3"))
    loader = trainer(torch.bfloat16, lr=K_LR)
    service = PolicyService(loader.policy, loader, str(tmp_path))
    assert service.update_weights_from_disk({"model_path": str(tmp_path / "v3")})["policy_version"] == 3
    weights = source.policy.trainable_parameters()
    assert all(torch.equal(m, p.float()) for m, p in zip(loader.params, weights))
    service.train_step({"samples": [dict(s, policyVersion=3) for s in samples]})
    moved = sum(int((a != b).sum()) for a, b in zip(weights, loader.policy.trainable_parameters()))
    assert 0 < moved < 0.2 * sum(p.numel() for p in weights)  # one small step away from the loaded weights
