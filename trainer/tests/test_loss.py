import math

import pytest
import torch

from ssr_trainer.loss import LossConfig, policy_loss, target_logprobs


def tensor(values):
    return torch.tensor(values, dtype=torch.float32)


def test_the_loss_equals_a_hand_computed_value():
    # Five trained tokens; log-ratios chosen to hit each branch of the objective.
    log_ratio = [0.2, -0.1, 0.5, -0.5, 1.5]
    advantages = [1.0, 1.0, 1.0, -1.0, -1.0]
    sampler = [-1.0, -2.0, -0.5, -1.5, -3.0]
    logprobs = [s + d for s, d in zip(sampler, log_ratio)]
    expected_objective = (
        math.exp(0.2) * 1.0      # inside [0.8, 1.28]: the ratio itself
        + math.exp(-0.1) * 1.0   # inside: the ratio itself
        + 1.28 * 1.0             # above 1 + eps_high with A > 0: clipped to 1.28
        + 0.8 * -1.0             # below 1 - eps_low with A < 0: clipped to 0.8
        + 3.0 * -1.0             # ratio 4.48 with A < 0: the dual clip caps the loss at 3 * |A|
    )
    loss, sums = policy_loss(tensor(logprobs), tensor(sampler), tensor(advantages), denominator=5.0)
    assert float(loss) == pytest.approx(-expected_objective / 5.0, rel=1e-6)
    assert sums["tokens"] == 5
    assert sums["clip_high"] == 1 and sums["clip_low"] == 1 and sums["dual_clip"] == 1
    assert sums["ratio"] == pytest.approx(sum(math.exp(d) for d in log_ratio), rel=1e-6)
    assert sums["kl"] == pytest.approx(sum(math.exp(d) - 1 - d for d in log_ratio), rel=1e-6)


@pytest.mark.parametrize("log_ratio, advantage, has_gradient", [
    (0.0, 1.0, True),
    (0.5, 1.0, False),    # clipped high: no push further up
    (-0.5, 1.0, True),    # below the range with A > 0: min picks the unclipped term
    (-0.5, -1.0, False),  # clipped low
    (0.5, -1.0, True),    # above the range with A < 0: unclipped (the ratio must come down)
    (1.5, -1.0, False),   # dual-clipped: constant loss
])
def test_clipping_decides_which_tokens_get_a_gradient(log_ratio, advantage, has_gradient):
    logprobs = tensor([-1.0 + log_ratio]).requires_grad_()
    loss, _ = policy_loss(logprobs, tensor([-1.0]), tensor([advantage]), denominator=1.0)
    loss.backward()
    assert (float(logprobs.grad.abs()) > 0) == has_gradient


def test_without_dual_clip_a_negative_token_loss_is_unbounded():
    loss, _ = policy_loss(tensor([0.5]), tensor([-1.0]), tensor([-1.0]), 1.0, LossConfig(dual_clip=None))
    assert float(loss) == pytest.approx(math.exp(1.5), rel=1e-6)


def test_trainer_old_logprobs_with_truncated_importance_weights():
    # old = the trainer's own logprobs: ratio 1; the weight exp(old - sampler) is capped at 2.
    logprobs = tensor([-1.0, -1.0]).requires_grad_()
    sampler = tensor([-1.0 - math.log(1.5), -1.0 - math.log(4.0)])
    config = LossConfig(old_logprobs="trainer", tis_cap=2.0)
    loss, sums = policy_loss(logprobs, sampler, tensor([1.0, 1.0]), 2.0, config)
    assert float(loss.detach()) == pytest.approx(-(1.5 + 2.0) / 2, rel=1e-6)
    loss.backward()
    assert logprobs.grad.tolist() == pytest.approx([-1.5 / 2, -2.0 / 2], rel=1e-6)


@pytest.mark.parametrize("chunk", [1, 3, 7, 100])
def test_chunked_logprobs_equal_a_full_log_softmax_with_the_same_gradient(chunk):
    torch.manual_seed(0)
    hidden = torch.randn(10, 8, requires_grad=True)
    head = torch.nn.Linear(8, 50)
    targets = torch.randint(0, 50, (10,))
    reference = torch.log_softmax(head(hidden).float(), -1).gather(-1, targets[:, None]).squeeze(-1)
    got, _ = target_logprobs(hidden, targets, head, chunk_size=chunk)
    assert torch.allclose(got, reference, atol=1e-6)
    (g_ref,) = torch.autograd.grad(reference.sum(), hidden)
    (g_got,) = torch.autograd.grad(got.sum(), hidden)
    assert torch.allclose(g_got, g_ref, atol=1e-6)


def test_logprobs_are_fp32_from_low_precision_logits():
    hidden = torch.randn(4, 8).to(torch.bfloat16)
    head = torch.nn.Linear(8, 20).to(torch.bfloat16)
    got, entropy = target_logprobs(hidden, torch.zeros(4, dtype=torch.long), head, with_entropy=True)
    assert got.dtype == torch.float32 and entropy.dtype == torch.float32
    assert bool((entropy > 0).all()) and bool((entropy <= math.log(20) + 1e-4).all())


@pytest.mark.parametrize("field, value", [("eps_low", 1.0), ("dual_clip", 1.0), ("old_logprobs", "ref"), ("tis_cap", 0.0), ("logprob_chunk", 0)])
def test_rejects_bad_config(field, value):
    with pytest.raises(ValueError, match=field):
        LossConfig(**{field: value}).validate()


def test_processed_logprobs_take_the_trainer_as_old_with_a_truncated_importance_weight():
    # Three tokens, advantage 1. Token 0 has raw logprobs (bypass: ratio against the sampler, no
    # weight); tokens 1 and 2 processed ones: ratio 1 against the trainer's own detached logprobs,
    # weight min(pi_old / mu, C) with C = 2 (the default): 1.5 and min(4, 2) = 2.
    logprobs = tensor([-1.0, -1.0, -1.0]).requires_grad_()
    sampler = tensor([-1.0 - 0.1, -1.0 - math.log(1.5), -1.0 - math.log(4.0)])
    processed = torch.tensor([False, True, True])
    loss, sums = policy_loss(logprobs, sampler, tensor([1.0, 1.0, 1.0]), 3.0, LossConfig(), processed=processed)
    assert LossConfig().tis_cap == 2.0
    expected = math.exp(0.1) + 1.5 + 2.0  # token 0: ratio e^0.1 = 1.105, inside [0.8, 1.28]
    assert float(loss.detach()) == pytest.approx(-expected / 3, rel=1e-6)
    loss.backward()
    assert logprobs.grad.tolist() == pytest.approx([-math.exp(0.1) / 3, -1.5 / 3, -2.0 / 3], rel=1e-6)
    assert sums["tis_tokens"] == 2 and sums["tis_weight"] == pytest.approx(3.5, rel=1e-6)


def test_a_null_tis_cap_leaves_processed_tokens_unweighted():
    logprobs = tensor([-1.0]).requires_grad_()
    loss, _ = policy_loss(logprobs, tensor([-3.0]), tensor([1.0]), 1.0, LossConfig(tis_cap=None), processed=torch.tensor([True]))
    assert float(loss.detach()) == pytest.approx(-1.0)
