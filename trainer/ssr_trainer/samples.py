"""Training samples as ssr writes them (`src/rl/training-sample.ts`), validated field by field.

One JSON object per trajectory; `<run>/samples/v<N>.jsonl` holds one step's samples and the same
objects are POSTed to `/train/step`. Field names stay camelCase on the wire; Python sees snake_case.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Iterable, List, Optional

ROLES = ("injector", "solver")
#: How the sampler's logprobs relate to what sampled: "raw" (the model's own distribution, sampled at
#: temperature 1, top-p 1, no top-k) or "processed" (the distribution after temperature / top-p /
#: top-k, vLLM's `--logprobs-mode processed_logprobs`): the trainer then corrects with TIS.
LOGPROB_MODES = ("raw", "processed")


class SampleError(ValueError):
    """A sample that does not match the contract; the message names the sample and the field."""


@dataclass
class TokenData:
    ids: List[int]
    loss_mask: List[int]
    #: sampler logprob per token; None where loss_mask is 0
    logprobs: List[Optional[float]]

    @property
    def loss_tokens(self) -> int:
        return sum(self.loss_mask)


@dataclass
class SamplingSettings:
    """The settings that produced a sample (`sampling` on the wire)."""

    temperature: float
    top_p: float
    #: -1: no top-k
    top_k: int
    logprobs: str

    @property
    def processed(self) -> bool:
        return self.logprobs == "processed"

    def to_json(self) -> dict:
        return {"temperature": self.temperature, "topP": self.top_p, "topK": self.top_k, "logprobs": self.logprobs}


@dataclass
class TrainingSample:
    id: str
    role: str
    group_id: str
    episode_id: str
    bug_id: Optional[str]
    policy_version: int
    reward: float
    advantage: float
    finish_reason: str
    masked: bool
    mask_reason: Optional[str]
    tokens: Optional[TokenData]
    messages: Optional[List[dict]]
    #: absent on samples written before it existed (then: raw logprobs at temperature 1)
    sampling: Optional[SamplingSettings] = None

    def to_json(self) -> dict:
        """The wire form (camelCase), as ssr writes it."""
        tokens = None
        if self.tokens is not None:
            tokens = {"ids": self.tokens.ids, "lossMask": self.tokens.loss_mask, "logprobs": self.tokens.logprobs}
        return {
            "id": self.id,
            "role": self.role,
            "groupId": self.group_id,
            "episodeId": self.episode_id,
            "bugId": self.bug_id,
            "policyVersion": self.policy_version,
            "reward": self.reward,
            "advantage": self.advantage,
            "finishReason": self.finish_reason,
            "masked": self.masked,
            "maskReason": self.mask_reason,
            "tokens": tokens,
            "messages": self.messages,
            **({"sampling": self.sampling.to_json()} if self.sampling is not None else {}),
        }


def parse_sample(obj: Any, where: str = "sample") -> TrainingSample:
    """Validates one wire object. Raises SampleError naming the first bad field."""
    if not isinstance(obj, dict):
        raise SampleError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    label = f"{where} ({obj['id']})" if isinstance(obj.get("id"), str) else where

    def need(key: str, check, what: str):
        if key not in obj:
            raise SampleError(f"{label}: missing field '{key}'")
        value = obj[key]
        if not check(value):
            raise SampleError(f"{label}: '{key}' must be {what}, got {json.dumps(value)[:80]}")
        return value

    sample = TrainingSample(
        id=need("id", _nonempty_str, "a non-empty string"),
        role=need("role", lambda v: v in ROLES, "'injector' or 'solver'"),
        group_id=need("groupId", _nonempty_str, "a non-empty string"),
        episode_id=need("episodeId", _nonempty_str, "a non-empty string"),
        bug_id=need("bugId", lambda v: v is None or isinstance(v, str), "a string or null"),
        policy_version=need("policyVersion", lambda v: _int(v) and v >= 0, "an integer >= 0"),
        reward=float(need("reward", _finite, "a finite number")),
        advantage=float(need("advantage", _finite, "a finite number")),
        finish_reason=need("finishReason", lambda v: isinstance(v, str), "a string"),
        masked=need("masked", lambda v: isinstance(v, bool), "a boolean"),
        mask_reason=need("maskReason", lambda v: v is None or isinstance(v, str), "a string or null"),
        tokens=None,
        messages=need("messages", lambda v: v is None or (isinstance(v, list) and all(isinstance(m, dict) for m in v)), "an array of objects or null"),
    )
    if obj.get("sampling") is not None:
        sample.sampling = _parse_sampling(need("sampling", lambda v: isinstance(v, dict), "an object"), label)
    tokens = need("tokens", lambda v: v is None or isinstance(v, dict), "an object or null")
    if tokens is not None:
        # A masked sample never trains: a missing logprob there must not fail the whole step.
        sample.tokens = _parse_tokens(tokens, label, need_logprobs=not sample.masked)
    return sample


def _parse_sampling(sampling: dict, label: str) -> SamplingSettings:
    def field(key: str, check, what: str):
        if not check(sampling.get(key)):
            raise SampleError(f"{label}: 'sampling.{key}' must be {what}, got {json.dumps(sampling.get(key))[:80]}")
        return sampling[key]

    settings = SamplingSettings(
        temperature=float(field("temperature", lambda v: _finite(v) and v >= 0, "a number >= 0")),
        top_p=float(field("topP", lambda v: _finite(v) and 0 < v <= 1, "a number in (0, 1]")),
        top_k=field("topK", lambda v: _int(v) and (v == -1 or v > 0), "-1 (no top-k) or a positive integer"),
        logprobs=field("logprobs", lambda v: v in LOGPROB_MODES, "'raw' or 'processed'"),
    )
    if not settings.processed and (settings.temperature != 1 or settings.top_p != 1 or settings.top_k != -1):
        # Raw logprobs are the model's own distribution: only temperature 1, top-p 1, no top-k sampled from it.
        raise SampleError(f"{label}: sampled at temperature {settings.temperature}, top-p {settings.top_p}, top-k {settings.top_k} "
                          "with raw logprobs: the behaviour logprobs are not those of the sampling distribution")
    return settings


def _parse_tokens(tokens: dict, label: str, need_logprobs: bool = True) -> TokenData:
    for key in ("ids", "lossMask", "logprobs"):
        if not isinstance(tokens.get(key), list):
            raise SampleError(f"{label}: 'tokens.{key}' must be an array")
    ids, mask, logprobs = tokens["ids"], tokens["lossMask"], tokens["logprobs"]
    if not (len(ids) == len(mask) == len(logprobs)):
        raise SampleError(f"{label}: tokens.ids, lossMask and logprobs differ in length ({len(ids)}, {len(mask)}, {len(logprobs)})")
    if mask and mask[0] == 1:
        raise SampleError(f"{label}: tokens.lossMask[0] is 1, but the first token has no context to be predicted from")
    for i, (token, m, lp) in enumerate(zip(ids, mask, logprobs)):
        if not (_int(token) and token >= 0):
            raise SampleError(f"{label}: tokens.ids[{i}] must be a non-negative integer, got {json.dumps(token)}")
        if m not in (0, 1) or isinstance(m, bool):
            raise SampleError(f"{label}: tokens.lossMask[{i}] must be 0 or 1, got {json.dumps(m)}")
        if m == 1 and need_logprobs and not _finite(lp):
            # The ratio needs the sampler's logprob on every trained token.
            raise SampleError(f"{label}: tokens.logprobs[{i}] must be a number where lossMask is 1, got {json.dumps(lp)}")
        if lp is not None and not _finite(lp):
            raise SampleError(f"{label}: tokens.logprobs[{i}] must be a number or null, got {json.dumps(lp)}")
    return TokenData(ids=list(ids), loss_mask=list(mask), logprobs=[None if m == 0 or lp is None else float(lp) for m, lp in zip(mask, logprobs)])


def parse_samples(objs: Iterable[Any]) -> List[TrainingSample]:
    return [parse_sample(obj, f"sample {i}") for i, obj in enumerate(objs)]


def parse_jsonl(text: str, source: str = "jsonl") -> List[TrainingSample]:
    """Parses `<run>/samples/v<N>.jsonl` content; blank lines are ignored."""
    samples = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as error:
            raise SampleError(f"{source}:{number}: not JSON ({error.msg})") from None
        samples.append(parse_sample(obj, f"{source}:{number}"))
    return samples


def load_jsonl(path: str) -> List[TrainingSample]:
    with open(path, encoding="utf-8") as handle:
        return parse_jsonl(handle.read(), path)


def _nonempty_str(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
