import pytest
import torch

from conftest import sampled
from ssr_trainer.models import batch_logprobs
from ssr_trainer.samples import parse_sample
from ssr_trainer.train import TrainConfig, Trainer, micro_batches, select_samples


def sequence_logprob(policy, sample):
    """Sum of the current policy's logprobs over the sample's trained tokens."""
    ids = torch.tensor([sample["tokens"]["ids"]])
    select = torch.tensor([sample["tokens"]["lossMask"]], dtype=torch.bool)
    with torch.no_grad():
        return float(batch_logprobs(policy, ids, select)[0].sum())


def grads(trainer):
    return [p.grad.clone() if p.grad is not None else torch.zeros_like(p) for p in trainer.params]


def mixed_batch(policy):
    return [
        sampled(policy, "fix the bug", seed=1, advantage=1.0, group="bug-a", sample_id="s1"),
        sampled(policy, "fix the bug", seed=2, advantage=-1.0, group="bug-a", sample_id="s2"),
        sampled(policy, "another one", max_tokens=20, seed=3, advantage=0.5, group="bug-b", sample_id="s3"),
        sampled(policy, "inject", max_tokens=7, seed=4, advantage=-0.25, role="injector", group="repo/strategy", sample_id="i1"),
        sampled(policy, "inject", max_tokens=16, seed=5, advantage=0.25, role="injector", group="repo/strategy", sample_id="i2"),
    ]


def test_positive_sequences_become_likelier_and_negative_ones_less_likely(tiny_policy):
    good = [sampled(tiny_policy, "task", seed=s, advantage=1.0, group="g", sample_id=f"good{s}") for s in (1, 2)]
    bad = [sampled(tiny_policy, "task", seed=s, advantage=-1.0, group="g", sample_id=f"bad{s}") for s in (3, 4)]
    before = [sequence_logprob(tiny_policy, s) for s in good + bad]
    trainer = Trainer(tiny_policy, TrainConfig(lr=3e-3, warmup_steps=0))
    for _ in range(4):
        trainer.step(good + bad)
    after = [sequence_logprob(tiny_policy, s) for s in good + bad]
    for i in range(2):
        assert after[i] > before[i] + 0.5, (before, after)
    for i in range(2, 4):
        assert after[i] < before[i] - 0.5, (before, after)
    assert trainer.version == 4


def test_gradient_accumulation_equals_the_single_batch_gradient(tiny_policy):
    samples = mixed_batch(tiny_policy)
    whole = Trainer(tiny_policy, TrainConfig(micro_batch_tokens=10**9, per_role_grad_norm=False))
    whole.accumulate([parse_sample(s) for s in samples])
    one_batch = grads(whole)
    split = Trainer(tiny_policy, TrainConfig(micro_batch_size=1))
    metrics = split.accumulate([parse_sample(s) for s in samples])
    assert len(micro_batches([parse_sample(s) for s in samples], split.config)) == 5
    for a, b in zip(grads(split), one_batch):
        assert torch.allclose(a, b, rtol=1e-4, atol=1e-7)
    # The per-role shares add up: each role's gradient was measured separately.
    assert metrics["roles"]["solver"]["grad_norm"] > 0 and metrics["roles"]["injector"]["grad_norm"] > 0


def test_stale_masked_and_zero_advantage_samples_are_excluded(tiny_policy):
    base = sampled(tiny_policy, "x", seed=1)
    samples = [
        dict(base, id="fresh", policyVersion=9, advantage=1.0, groupId="a"),
        dict(base, id="lag-8", policyVersion=1, advantage=-1.0, groupId="a"),            # exactly 8 behind: kept
        dict(base, id="lag-9", policyVersion=0, advantage=1.0, groupId="a"),             # stale
        dict(base, id="masked", policyVersion=9, advantage=1.0, groupId="a", masked=True, maskReason="infra"),
        dict(base, id="chat", policyVersion=9, tokens=None, messages=[{"role": "user", "content": "x"}]),
        dict(base, id="flat-1", policyVersion=9, advantage=0.0, groupId="flat"),         # a group with no signal
        dict(base, id="flat-2", policyVersion=9, advantage=0.0, groupId="flat", role="injector"),
    ]
    trainer = Trainer(tiny_policy, TrainConfig(), version=9)
    metrics = trainer.step(samples)
    assert metrics["samples"] == {"received": 7, "trained": 2}
    assert metrics["excluded"] == {"stale": 1, "masked": 1, "no_tokens": 1, "no_loss_tokens": 0, "too_long": 0, "zero_advantage_group": 2}
    assert metrics["excluded_by_role"]["zero_advantage_group"] == {"injector": 1, "solver": 1}
    # The denominator counts only the two trained samples' tokens.
    trained_tokens = 2 * sum(base["tokens"]["lossMask"])
    assert metrics["loss_denominator"] == trained_tokens
    assert metrics["tokens"]["trained"] == trained_tokens
    assert metrics["version"] == 10


def test_excluded_samples_do_not_change_the_gradient(tiny_policy):
    kept = [sampled(tiny_policy, "x", seed=s, advantage=a, sample_id=f"k{s}") for s, a in ((1, 1.0), (2, -1.0))]
    noise = [dict(kept[0], id="m", masked=True, advantage=5.0), dict(kept[1], id="z", groupId="zero", advantage=0.0)]
    a = Trainer(tiny_policy, TrainConfig())
    a.accumulate([parse_sample(s) for s in kept])
    clean = grads(a)
    b = Trainer(tiny_policy, TrainConfig())
    b.accumulate([parse_sample(s) for s in kept + noise])
    for x, y in zip(grads(b), clean):
        assert torch.equal(x, y)


def test_a_sample_from_the_future_is_an_error(tiny_policy):
    sample = sampled(tiny_policy, "x", version=3)
    with pytest.raises(ValueError, match="newer than the trainer"):
        Trainer(tiny_policy, TrainConfig(), version=2).step([sample])


def test_an_empty_step_bumps_the_version_without_changing_weights(tiny_policy):
    before = [p.detach().clone() for p in tiny_policy.module.parameters()]
    trainer = Trainer(tiny_policy, TrainConfig(lr=1e-2, warmup_steps=0))
    metrics = trainer.step([dict(sampled(tiny_policy, "x"), masked=True)])
    assert metrics["samples"]["trained"] == 0 and metrics["version"] == 1
    assert all(torch.equal(a, b) for a, b in zip(before, tiny_policy.module.parameters()))


def test_warmup_is_linear_to_the_target_lr():
    config = TrainConfig()  # SSR: 3e-6 after 30 steps
    assert config.lr_at(0) == pytest.approx(1e-7)
    assert config.lr_at(14) == pytest.approx(1.5e-6)
    assert config.lr_at(29) == pytest.approx(3e-6) and config.lr_at(100) == pytest.approx(3e-6)
    assert TrainConfig(warmup_steps=0).lr_at(0) == pytest.approx(3e-6)


def test_warmup_counts_only_steps_that_updated(tiny_policy):
    """Filtered-out samples, zero-advantage groups and a zero gradient update nothing: the version
    moves, the warm-up does not, and Adam's momentum from earlier steps does not move the weights."""
    trainer = Trainer(tiny_policy, TrainConfig(lr=1e-3, warmup_steps=4))
    signal = [sampled(tiny_policy, "task", seed=s, advantage=a, group="g", sample_id=f"s{s}") for s, a in ((1, 1.0), (2, -1.0))]
    first = trainer.step(signal)
    assert first["step"] == 1 and first["lr"] == pytest.approx(2.5e-4)
    silent = [dict(s, advantage=0.0) for s in signal]
    empty_steps = [
        [dict(signal[0], masked=True)],  # every sample filtered out
        silent,  # a zero-advantage group (skipped)
    ]
    for samples in empty_steps:
        before = [p.detach().clone() for p in tiny_policy.module.parameters()]
        metrics = trainer.step([dict(s, policyVersion=trainer.version) for s in samples])
        assert trainer.steps == 1 and metrics["step"] == 1 and not metrics["updated"]
        assert all(torch.equal(a, b) for a, b in zip(before, tiny_policy.module.parameters()))
    # Kept, but no signal: the gradient is exactly zero, and Adam's momentum alone would move the weights.
    before = [p.detach().clone() for p in tiny_policy.module.parameters()]
    metrics = trainer.step([dict(s, policyVersion=trainer.version) for s in silent], {"skip_zero_advantage_groups": False})
    assert metrics["samples"]["trained"] == 2 and metrics["grad_norm"] == 0.0
    assert trainer.steps == 1 and trainer.version == 4 and not metrics["updated"]
    assert all(torch.equal(a, b) for a, b in zip(before, tiny_policy.module.parameters()))
    after = trainer.step([dict(s, policyVersion=trainer.version) for s in signal])
    assert after["step"] == 2 and after["lr"] == pytest.approx(5e-4)  # the warm-up's second step
    assert first["updated"] and after["updated"]


def test_grad_norm_is_clipped_and_reported(tiny_policy):
    samples = mixed_batch(tiny_policy)
    metrics = Trainer(tiny_policy, TrainConfig(max_grad_norm=1e-6)).step(samples)
    assert metrics["grad_norm"] > 1e-6  # the norm before clipping
    roles = metrics["roles"]
    assert roles["solver"]["samples"] == {"received": 3, "trained": 3}
    assert roles["injector"]["mean_advantage"] == pytest.approx(0.0)
    assert roles["solver"]["tokens"]["trained"] + roles["injector"]["tokens"]["trained"] == metrics["tokens"]["trained"]
    assert metrics["mean_ratio"] == pytest.approx(1.0, abs=1e-5) and metrics["approx_kl"] == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("overrides, message", [
    ({"learning_rate": 1}, "unknown config field 'learning_rate'"),
    ({"eps_high": -1}, "clip range"),
    ({"loss": {"nope": 1}}, "unknown loss field"),
    ({"micro_batch_size": 0}, "micro_batch_size"),
])
def test_bad_overrides_are_rejected(overrides, message):
    with pytest.raises(ValueError, match=message):
        TrainConfig().with_overrides(overrides)


def test_overrides_apply_to_one_step_only(tiny_policy):
    trainer = Trainer(tiny_policy, TrainConfig(lr=1e-3, warmup_steps=0))
    metrics = trainer.step([sampled(tiny_policy, "x")], {"lr": 5e-4, "eps_high": 0.3})
    assert metrics["lr"] == 5e-4
    assert trainer.config.lr == 1e-3 and trainer.config.loss.eps_high == 0.28


def test_selection_keeps_a_group_with_any_nonzero_advantage(tiny_policy):
    base = parse_sample(sampled(tiny_policy, "x"))
    import dataclasses

    group = [dataclasses.replace(base, id=f"s{i}", advantage=a) for i, a in enumerate([0.0, 0.0, 1.0])]
    assert len(select_samples(group, 0, TrainConfig(), None).kept) == 3


@pytest.mark.parametrize("mode", ["tokens", "budget"])
def test_dr_grpo_divides_by_the_generation_budget_not_the_lengths(tiny_policy, mode):
    # On-policy samples (ratio 1): every trained token's objective is its advantage, so the loss is
    # -sum_i A_i * L_i / denominator, with denominator sum_i L_i (GRPO / RLOO) or budget * n (Dr.GRPO).
    samples = [sampled(tiny_policy, "x", max_tokens=m, seed=s, advantage=a, sample_id=f"s{s}")
               for s, m, a in ((1, 4, 1.0), (2, 9, -0.5), (3, 6, -0.5))]
    lengths = [sum(s["tokens"]["lossMask"]) for s in samples]
    budget = 12
    config = TrainConfig(loss_denominator=mode, generation_budget=budget, warmup_steps=0)
    metrics = Trainer(tiny_policy, config).accumulate([parse_sample(s) for s in samples])
    weighted = sum(s["advantage"] * n for s, n in zip(samples, lengths))
    denominator = sum(lengths) if mode == "tokens" else budget * 3
    assert metrics["loss_denominator"] == denominator
    assert metrics["loss"] == pytest.approx(-weighted / denominator, rel=1e-5, abs=1e-7)


def test_dr_grpo_counts_zero_advantage_groups_in_its_batch(tiny_policy):
    signal = [sampled(tiny_policy, "x", max_tokens=4, seed=s, advantage=a, sample_id=f"s{s}") for s, a in ((1, 1.0), (2, -1.0))]
    silent = [sampled(tiny_policy, "y", max_tokens=4, seed=3, advantage=0.0, group="flat", sample_id="flat")]
    config = TrainConfig(loss_denominator="budget", generation_budget=10)
    metrics = Trainer(tiny_policy, config).accumulate([parse_sample(s) for s in signal + silent])
    assert metrics["samples"]["trained"] == 2 and metrics["loss_denominator"] == 30


def test_processed_samples_are_tis_weighted_in_a_step(tiny_policy):
    # The sampler's processed logprobs are 1 nat below the trainer's: pi_old / mu = e > 2, capped at 2.
    sample = sampled(tiny_policy, "x", max_tokens=6, seed=1, advantage=1.0, sample_id="p")
    sample["tokens"]["logprobs"] = [None if lp is None else lp - 1.0 for lp in sample["tokens"]["logprobs"]]
    sample["sampling"] = {"temperature": 0.7, "topP": 0.9, "topK": 20, "logprobs": "processed"}
    other = sampled(tiny_policy, "x", max_tokens=6, seed=2, advantage=-1.0, sample_id="q")
    metrics = Trainer(tiny_policy, TrainConfig()).accumulate([parse_sample(s) for s in (sample, other)])
    n = sum(sample["tokens"]["lossMask"])
    assert metrics["tis_frac"] == pytest.approx(n / metrics["tokens"]["trained"])
    assert metrics["mean_tis_weight"] == pytest.approx(2.0)
    # Sample p: ratio 1 (old = the trainer's own), weight 2; sample q: ratio 1 against its own logprobs.
    m = metrics["tokens"]["trained"] - n
    assert metrics["loss"] == pytest.approx(-(2.0 * n - m) / (n + m), rel=1e-5)
