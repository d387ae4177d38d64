"""A completion request's body, checked, as the sampling jobs it asks for (one per choice)."""

from __future__ import annotations

import json
from typing import Any, List, Optional

from .policy import Policy
from .sampling import SampleJob
from .server import bad_request


def number(body: dict, key: str, default: float, low: float, high: float = float("inf")) -> float:
    value = body.get(key, default)
    if value is None:
        return default
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not (low <= value <= high):
        raise bad_request(f"'{key}' must be a number in [{low}, {high}], got {json.dumps(value)}")
    return float(value)


def integer(body: dict, key: str, default: Optional[int], low: int = 0) -> Optional[int]:
    value = body.get(key, default)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise bad_request(f"'{key}' must be an integer >= {low}, got {json.dumps(value)}")
    return value


def prompt_ids(policy: Policy, prompt: Any) -> List[int]:
    """A string (tokenized here) or token ids (a batch of one is accepted as vLLM does)."""
    if isinstance(prompt, str):
        return policy.tokenizer.encode(prompt)
    if isinstance(prompt, list) and len(prompt) == 1 and isinstance(prompt[0], list):
        prompt = prompt[0]  # a batch of one
    vocab = policy.vocab_size  # what sampling can produce, also past the tokenizer's ids
    if not isinstance(prompt, list) or not prompt or not all(isinstance(t, int) and not isinstance(t, bool) and 0 <= t < vocab for t in prompt):
        raise bad_request(f"'prompt' must be a string or a non-empty array of token ids in [0, {vocab})")
    return prompt


#: Sampling parameters this service does not apply, and the value that means "off". ssr's tokens
#: mode sends each explicitly (a vLLM would otherwise fill them from the model's generation
#: config); any other value is refused rather than ignored, or the returned log-probs would not
#: describe what sampled.
NEUTRAL = {"repetition_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0, "min_p": 0.0}


def check_neutral(body: dict) -> None:
    for key, neutral in NEUTRAL.items():
        value = body.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value != neutral):
            raise bad_request(f"'{key}' {json.dumps(value)} is not supported: this service samples from the model's own distribution; "
                              f"send {neutral:g} or leave it out")
    if body.get("logit_bias"):
        raise bad_request("'logit_bias' is not supported: this service samples from the model's own distribution; send none")


def sampling_jobs(policy: Policy, body: dict, prompt: List[int]) -> List[SampleJob]:
    """The `n` jobs of one request; choice i of a seeded request is seeded `seed + i`."""
    max_model_len = policy.max_model_len
    max_tokens = integer(body, "max_tokens", 16)
    if len(prompt) + max_tokens > max_model_len:
        raise bad_request(f"This model's maximum context length is {max_model_len} tokens. However, you requested "
                          f"{len(prompt) + max_tokens} tokens ({len(prompt)} in the prompt, {max_tokens} for the completion).")
    temperature = number(body, "temperature", 1.0, 0.0)
    top_p = number(body, "top_p", 1.0, 1e-9, 1.0)
    seed = integer(body, "seed", None, low=-(2 ** 63))
    n = integer(body, "n", 1, low=1)
    top_k = body.get("top_k")
    if top_k is not None and top_k != -1 or isinstance(top_k, bool):
        # Silently sampling from the full distribution would label the samples with a top-k that
        # never applied (and their logprobs with the wrong distribution).
        raise bad_request(f"'top_k' {json.dumps(top_k)} is not supported: this service samples from the whole vocabulary "
                          "(temperature, top_p); send -1 or leave it out")
    check_neutral(body)
    if body.get("stop"):
        raise bad_request("'stop' strings are not supported: use 'stop_token_ids'")
    extra = body.get("stop_token_ids") or []
    if not isinstance(extra, list) or not all(isinstance(t, int) for t in extra):
        raise bad_request("'stop_token_ids' must be an array of token ids")
    stops = list(extra) if body.get("ignore_eos") else [*policy.tokenizer.stop_ids, *extra]
    return [SampleJob(prompt, max_tokens, temperature, top_p, stops, None if seed is None else seed + i) for i in range(n)]
