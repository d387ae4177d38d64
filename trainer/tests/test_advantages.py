import json
import os

import pytest

from conftest import REPO_ROOT
from ssr_trainer.advantages import compute_advantages, loss_denominator

FIXTURE = os.path.join(REPO_ROOT, "test", "fixtures", "rl", "advantages.json")


def load_cases():
    # No skip when the file is missing: the golden cases are shared with the engine and must exist.
    with open(FIXTURE) as handle:
        return json.load(handle)


CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[f"{c['name']}-{c['estimator']}" for c in CASES])
def test_matches_the_golden_advantages(case):
    got = compute_advantages(case["rewards"], case["estimator"])
    assert len(got) == len(case["advantages"])
    for value, expected in zip(got, case["advantages"]):
        assert value == pytest.approx(expected, abs=1e-9)


def test_the_fixture_covers_every_estimator():
    assert {c["estimator"] for c in CASES} == {"rloo", "grpo", "dr-grpo"}


@pytest.mark.parametrize("rewards", [[0.5, 0.5, 0.5], [1.0]])
def test_groups_without_signal_get_exact_zeros(rewards):
    for estimator in ("rloo", "grpo", "dr-grpo"):
        assert compute_advantages(rewards, estimator) == [0.0] * len(rewards)


@pytest.mark.parametrize("rewards, estimator, message", [
    ([1.0, float("nan")], "rloo", "reward 1"),
    ([1.0, 0.0], "ppo", "unknown advantage estimator"),
])
def test_rejects_bad_input(rewards, estimator, message):
    with pytest.raises(ValueError, match=message):
        compute_advantages(rewards, estimator)


@pytest.mark.parametrize("mode, loss_tokens, budget, expected", [
    ("tokens", [3, 5, 10], None, 18.0),    # GRPO / RLOO: the batch's trained tokens
    ("budget", [3, 5, 10], 16, 48.0),      # Dr.GRPO: 16 tokens of budget x 3 samples, whatever their lengths
    ("budget", [1], 16, 16.0),
    (7.5, [3, 5], None, 7.5),
])
def test_loss_denominator_by_hand(mode, loss_tokens, budget, expected):
    assert loss_denominator(mode, loss_tokens, budget) == expected


@pytest.mark.parametrize("mode, loss_tokens, budget, message", [
    ("budget", [3], None, "needs generation_budget"),
    ("budget", [20], 16, "more than the generation budget 16"),
    ("mean", [3], None, "'tokens', 'budget' or a positive number"),
])
def test_loss_denominator_rejects(mode, loss_tokens, budget, message):
    with pytest.raises(ValueError, match=message):
        loss_denominator(mode, loss_tokens, budget)
