"""The endpoints as plain methods (`PolicyService`: body dict in, response dict out), independent
of HTTP (server.py) and of the command line (service.py)."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any, List, Tuple

import torch

from . import weights_endpoints
from .completion_request import prompt_ids, sampling_jobs
from .engine import SamplingEngine
from .policy import Policy
from .prefix_cache import DEFAULT_PREFIX_CACHE_MB
from .ranks_apart import RanksApartError, refuse_if_apart
from .probe_logprobs import probe_logprobs
from .samples import parse_samples
from .sampling import Completion
from .served import ServedWeights
from .server import ApiError, bad_request
from .train import Trainer


def _bad(message: str) -> ApiError:
    return bad_request(message)


class PolicyService:
    """The endpoints as plain methods (body dict in, response dict out), independent of HTTP.

    Training, saving and loading hold `lock` (through `served.training()`). Sampling goes through
    the engine and reads the weights `served` holds (a copy by default, so it goes on during a
    step; see served.py).
    """

    def __init__(self, policy: Policy, trainer: Trainer, output_dir: str = "checkpoints", sampling_weights: str = "copy",
                 batch_window_ms: float = 0.0, max_batch: int = 32, logprobs: str = "auto", prefix_cache_mb: float = DEFAULT_PREFIX_CACHE_MB) -> None:
        # The full trained weights: `policy` itself, or under FSDP (distributed.py) rank 0's gathered copy.
        self.policy = trainer.published_policy()
        self.trainer = trainer
        self.output_dir = output_dir
        self.lock = threading.Lock()
        self.started = int(time.time())
        self.served = ServedWeights(self.policy, trainer.version, sampling_weights, self.lock)
        self.engine = SamplingEngine(self.served, max_batch, batch_window_ms / 1000.0, sampler_logprobs(policy, logprobs), int(prefix_cache_mb * 2**20))

    @property
    def version(self) -> int:
        """The version of the weights completions are sampled from now."""
        return self.served.version

    def _check_model(self, body: dict) -> None:
        model = body.get("model")
        if model is not None and model != self.policy.name:
            raise ApiError(404, f"the model `{model}` does not exist; this service serves `{self.policy.name}`", "NotFoundError")

    def apart_refusal(self, error: RanksApartError) -> ApiError:
        """The answer to every step, save and load once the ranks hold different weights (ranks_apart.py)."""
        return ApiError(500, str(error), "trainer_ranks_apart", extra={"success": False, "message": str(error)})

    def refuse_if_apart(self) -> None:
        try:
            refuse_if_apart(self.trainer)
        except RanksApartError as error:
            raise self.apart_refusal(error) from None

    def health(self) -> dict:
        apart = getattr(self.trainer, "ranks_apart", None)
        if apart:  # 503, so that a probe that reads the status alone sees it too
            raise ApiError(503, apart, "trainer_ranks_apart", extra={"status": "ranks_apart", "policy_version": self.version})
        return {"status": "ok", "model": self.policy.name, "kind": self.policy.kind, "lora": self.policy.lora,
                "policy_version": self.version, "trainer_version": self.trainer.version, "device": str(self.policy.device),
                "precision": self.trainer.precision.describe(),
                "sampling": dict(self.engine.stats, weights=self.served.mode, window_ms=self.engine.window_s * 1000, max_batch=self.engine.max_batch,
                                 logprobs=self.engine.logprobs, prefix_cache=self.engine.prefixes.stats()),
                "parallel": {"mode": getattr(self.trainer, "mode", "none"), "world_size": getattr(self.trainer, "world_size", 1)}}

    def models(self) -> dict:
        entry = {"id": self.policy.name, "object": "model", "created": self.started, "owned_by": "ssr-trainer",
                 "max_model_len": self.policy.max_model_len, "policy_version": self.version}
        return {"object": "list", "data": [entry]}

    def tokenize(self, body: dict) -> dict:
        self._check_model(body)
        tools = body.get("tools")
        if tools is not None and not isinstance(tools, list):
            raise _bad("'tools' must be an array")
        if "messages" in body:
            add = body.get("add_generation_prompt", True)
            if not isinstance(add, bool):
                raise _bad("'add_generation_prompt' must be a boolean")
            try:
                tokens = self.policy.tokenizer.apply_chat_template(body["messages"], tools=tools, add_generation_prompt=add)
            except ValueError as error:
                raise _bad(str(error)) from None
        elif isinstance(body.get("prompt"), str):
            tokens = self.policy.tokenizer.encode(body["prompt"])
        else:
            raise _bad("expected 'messages' (an array of chat messages) or 'prompt' (a string)")
        return {"tokens": tokens, "count": len(tokens), "max_model_len": self.policy.max_model_len}

    def _refuse_shared_if_apart(self) -> None:
        """Sampling from the trained weights themselves (`shared`): after a failed copy rank 0's may be
        part old, part new. (A `copy` serves the last weights published, which no failed load touched.)"""
        if self.served.mode == "shared":
            self.refuse_if_apart()

    def _sample(self, body: dict, prompt: List[int]) -> Tuple[List[Completion], int]:
        return self.engine.submit(sampling_jobs(self.policy, body, prompt))

    def completions(self, body: dict) -> dict:
        self._check_model(body)
        self._refuse_shared_if_apart()
        prompt = prompt_ids(self.policy, body.get("prompt"))
        results, version = self._sample(body, prompt)
        skip = body.get("skip_special_tokens", True) is not False
        as_ids = bool(body.get("return_tokens_as_token_ids"))
        tok = self.policy.tokenizer
        choices = []
        for index, result in enumerate(results):
            tokens = [f"token_id:{t}" if as_ids else tok.token_text(t) for t in result.token_ids]
            stop = result.token_ids[-1] if result.finish_reason == "stop" else None
            # As vLLM: the stop token is in token_ids (the model must learn to emit it), not in the text.
            shown = result.token_ids[:-1] if stop is not None else result.token_ids
            choices.append({"index": index, "text": tok.decode(shown, skip_special_tokens=skip), "token_ids": result.token_ids,
                            "logprobs": {"tokens": tokens, "token_logprobs": result.logprobs}, "finish_reason": result.finish_reason, "stop_reason": stop})
        return self._answer("cmpl", "text_completion", prompt, results, version, choices)

    def chat_completions(self, body: dict) -> dict:
        self._check_model(body)
        self._refuse_shared_if_apart()
        prompt = self.tokenize({"messages": body.get("messages"), "tools": body.get("tools"), "add_generation_prompt": True})["tokens"]
        results, version = self._sample(body, prompt)
        tok = self.policy.tokenizer
        choices = [{"index": i, "message": {"role": "assistant", "content": tok.decode(r.token_ids[:-1] if r.finish_reason == "stop" else r.token_ids)},
                    "finish_reason": r.finish_reason}
                   for i, r in enumerate(results)]
        return self._answer("chatcmpl", "chat.completion", prompt, results, version, choices)

    def _answer(self, id_prefix: str, kind: str, prompt: list, results: list, version: int, choices: list) -> dict:
        """The OpenAI envelope of a completion: id, object, model, the policy version and the token usage."""
        completion_tokens = sum(len(r.token_ids) for r in results)
        return {"id": f"{id_prefix}-{uuid.uuid4().hex}", "object": kind, "created": int(time.time()), "model": self.policy.name,
                "policy_version": version, "choices": choices,
                "usage": {"prompt_tokens": len(prompt), "completion_tokens": completion_tokens, "total_tokens": len(prompt) + completion_tokens}}

    def logprobs(self, body: dict) -> dict:
        """See probe_logprobs.py: what ssr compares a separate sampler's log-probs with."""
        self._check_model(body)
        self._refuse_shared_if_apart()
        return probe_logprobs(self.served, body)

    def train_step(self, body: Any) -> dict:
        """`{samples: [...], config?: {...}, expected_version?: N}`, or the samples as JSONL lines."""
        if isinstance(body, list):
            samples, overrides, expected = body, None, None
        elif isinstance(body, dict):
            samples, overrides, expected = body.get("samples"), body.get("config"), body.get("expected_version")
            if not isinstance(samples, list):
                raise _bad("expected {\"samples\": [training samples…]}")
            samples = parse_samples(samples)
        else:
            raise _bad("expected {\"samples\": [training samples…]}")
        with self.served.training():
            self.refuse_if_apart()
            if expected is not None and expected != self.trainer.version:
                raise ApiError(409, f"expected_version {expected}, but the trainer is at version {self.trainer.version}", "conflict")
            try:
                metrics = self.trainer.step(samples, overrides)
            except ValueError as error:
                raise ApiError(409 if "newer than the trainer" in str(error) else 400, str(error)) from None
            self.served.publish(self.policy, self.trainer.version)
        return {"version": self.trainer.version, "metrics": metrics}

    def save(self, body: dict) -> dict:
        """See weights_endpoints.save: a checkpoint written atomically (resumable, or weights only)."""
        return weights_endpoints.save(self, body)

    def update_weights_from_disk(self, body: dict) -> dict:
        """See weights_endpoints.update_weights_from_disk: SGLang's request, a checkpoint's weights served."""
        return weights_endpoints.update_weights_from_disk(self, body)


def sampler_logprobs(policy: Policy, mode: str) -> str:
    """`--logprobs auto`: from the decode logits for the tiny model in fp32 (within ~1e-6 of the
    trainer's pass), teacher-forced otherwise (bf16 decoding drifts from it)."""
    if mode == "auto":
        fp32 = all(p.dtype == torch.float32 for p in policy.module.parameters())
        return "decode" if policy.kind == "tiny" and fp32 else "teacher-forced"
    return mode
