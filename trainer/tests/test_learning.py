"""Learning, shown end to end: the real service (started through its CLI, real HTTP) trains on
teacher-forced rewarded sequences through /train/step, and the policy measurably moves toward the
rewarded continuation. The log-probs are measured on the weights the service itself saves
(/weights/save), loaded here, so the check reads what the service really trained."""

import pytest
import torch

from ssr_trainer.models import batch_logprobs, load_policy
from ssr_trainer.tokenizer import ByteTokenizer
from test_service import TINY, call, start

STEPS = 3


def sequence_logprobs(policy, prompt, continuation):
    """Per-token log p(continuation | prompt) under `policy`, as the trainer computes them."""
    ids = torch.tensor([prompt + continuation])
    select = torch.tensor([[False] * len(prompt) + [True] * len(continuation)])
    with torch.no_grad():
        logprobs, _ = batch_logprobs(policy, ids, select)
    return logprobs.tolist()


def sample(sample_id, prompt, continuation, logprobs, advantage, version):
    return {"id": sample_id, "role": "solver", "groupId": "yes-or-no", "episodeId": sample_id, "bugId": "bug-1", "policyVersion": version,
            "reward": advantage, "advantage": advantage, "finishReason": "submitted", "masked": False, "maskReason": None, "messages": None,
            "tokens": {"ids": prompt + continuation, "lossMask": [0] * len(prompt) + [1] * len(continuation),
                       "logprobs": [None] * len(prompt) + logprobs}}


@pytest.mark.parametrize("rewarded", ["yes", "no"])
def test_the_rewarded_sequence_gains_log_prob_and_the_other_loses_it(tmp_path, rewarded):
    process, base = start(["--model", "tiny", "--model-config", TINY, "--lr", "0.003", "--warmup-steps", "0"], tmp_path)
    try:
        tok = ByteTokenizer()
        status, tokenized = call(base, "/tokenize", {"messages": [{"role": "user", "content": "Do the tests pass?"}]})
        assert status == 200
        prompt = tokenized["tokens"]
        answers = {word: tok.encode(word) + [tok.im_end_id] for word in ("yes", "no")}
        totals = {word: [] for word in answers}
        for version in range(STEPS + 1):
            status, saved = call(base, "/weights/save", {"path": str(tmp_path / f"v{version}")})
            assert status == 200 and saved["version"] == version
            policy, _ = load_policy(saved["path"], device="cpu")
            logprobs = {word: sequence_logprobs(policy, prompt, ids) for word, ids in answers.items()}
            for word in answers:
                totals[word].append(sum(logprobs[word]))
            if version == STEPS:
                break
            # One group: +1 for the rewarded answer, -1 for the other (RLOO over two: advantages +-2),
            # with the behaviour log-probs of the weights that would have sampled them (on-policy).
            samples = [sample(f"{word}-{version}", prompt, ids, logprobs[word], 2.0 if word == rewarded else -2.0, version)
                       for word, ids in answers.items()]
            status, step = call(base, "/train/step", {"samples": samples, "expected_version": version})
            assert status == 200, step
            assert step["metrics"]["samples"]["trained"] == 2
            assert step["metrics"]["mean_ratio"] == pytest.approx(1.0, abs=1e-4)  # the service's weights are the saved ones
        other = "no" if rewarded == "yes" else "yes"
        # Every step moves both: strictly up for the rewarded answer, strictly down for the other.
        assert all(b > a for a, b in zip(totals[rewarded], totals[rewarded][1:])), totals
        assert all(b < a for a, b in zip(totals[other], totals[other][1:])), totals
        assert totals[rewarded][-1] - totals[rewarded][0] > 0.5, totals
    finally:
        process.terminate()
        process.wait(timeout=10)
