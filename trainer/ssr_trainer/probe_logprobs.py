"""`POST /logprobs`: the log-probs this service's served weights give a fixed continuation.

ssr asks the trainer for them after every sampler sync and compares them with what the sampler
returned for the same tokens (docs/rl-contract.md, "Verifying the sampler"): a sampler that serves
other weights (an old adapter under a reused name, a load that silently failed) or alters the
distribution (a repetition penalty it was told not to apply) answers other numbers.
"""

from __future__ import annotations

import json
from typing import Any, List

from .completion_request import prompt_ids
from .policy import Policy
from .running_batch import evaluating
from .sampling import completion_logprobs
from .server import bad_request
from .served import ServedWeights


def continuation_ids(policy: Policy, value: Any) -> List[int]:
    vocab = policy.vocab_size  # what sampling can produce, also past the tokenizer's ids
    if not isinstance(value, list) or not value or not all(isinstance(t, int) and not isinstance(t, bool) and 0 <= t < vocab for t in value):
        raise bad_request(f"'continuation' must be a non-empty array of token ids in [0, {vocab}), got {json.dumps(value)[:80]}")
    return value


def probe_logprobs(served: ServedWeights, body: dict) -> dict:
    """`{prompt: ids | text, continuation: ids}` → the raw (temperature 1) log-prob of each
    continuation token after the prompt and the ones before it, from the weights completions are
    sampled from now, with their `policy_version`."""
    policy = served.policy
    prompt = prompt_ids(policy, body.get("prompt"))
    continuation = continuation_ids(policy, body.get("continuation"))
    if len(prompt) + len(continuation) > policy.max_model_len:
        raise bad_request(f"prompt + continuation hold {len(prompt) + len(continuation)} tokens; the model's context is {policy.max_model_len}")
    with served.reading() as weights, evaluating(weights):
        logprobs = completion_logprobs(weights, prompt, continuation)
        version = served.version
    return {"object": "logprobs", "model": policy.name, "policy_version": version, "prompt": prompt, "continuation": continuation, "logprobs": logprobs}
