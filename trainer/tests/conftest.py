"""Shared helpers: the package on sys.path, and samples built the way ssr builds them."""

import os
import sys

import pytest
import torch

TRAINER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(TRAINER_DIR)
sys.path.insert(0, TRAINER_DIR)

torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))


def make_sample(ids, loss_mask, logprobs, advantage=1.0, role="solver", group="g", version=0, masked=False, sample_id=None, reward=None):
    """A wire-format (camelCase) training sample, as ssr writes it to samples/v<N>.jsonl."""
    return {
        "id": sample_id or f"{role}-{group}-{advantage}-{len(ids)}-{version}",
        "role": role,
        "groupId": group,
        "episodeId": f"ep-{sample_id or len(ids)}",
        "bugId": "bug-1" if role == "solver" else None,
        "policyVersion": version,
        "reward": advantage if reward is None else reward,
        "advantage": advantage,
        "finishReason": "submitted",
        "masked": masked,
        "maskReason": "turn-limit" if masked else None,
        "tokens": {"ids": list(ids), "lossMask": list(loss_mask), "logprobs": [lp if m else None for m, lp in zip(loss_mask, logprobs)]},
        "messages": None,
    }


def sampled(policy, prompt_text, max_tokens=12, seed=0, **sample_fields):
    """Samples a completion with the service's code and returns it as a training sample."""
    from ssr_trainer.sampling import generate

    tok = policy.tokenizer
    prompt = tok.apply_chat_template([{"role": "user", "content": prompt_text}], add_generation_prompt=True)
    completion = generate(policy, prompt, max_tokens, seed=seed, stop_ids=tok.stop_ids)
    ids = prompt + completion.token_ids
    mask = [0] * len(prompt) + [1] * len(completion.token_ids)
    logprobs = [0.0] * len(prompt) + completion.logprobs
    return make_sample(ids, mask, logprobs, **sample_fields)


@pytest.fixture
def tiny_policy():
    from ssr_trainer.models import TinyPolicy
    from ssr_trainer.tiny_model import TinyConfig

    return TinyPolicy(TinyConfig(d_model=32, n_layers=2, n_heads=2, d_ff=64, seed=1))
