"""The policy service: one process that samples (a vLLM-compatible subset) and trains one policy.

    /usr/bin/python3 -m ssr_trainer.service --model tiny --port 8000
    /usr/bin/python3 -m ssr_trainer.service --model tiny --port 8000 --resume checkpoints/v12

Endpoints: GET /health, GET /v1/models, POST /tokenize, POST /v1/completions,
POST /v1/chat/completions (text only), POST /train/step, POST /weights/save,
POST /update_weights_from_disk (SGLang's body: serve a checkpoint /weights/save wrote),
POST /logprobs (the served weights' log-probs of a given continuation: ssr's sampler check).
Concurrent completions are decoded together by continuous batching, prompts prefilled after
their longest cached prefix (engine.py), from weights that never change under a running sequence
(served.py), and every completion reports the `policy_version` of the weights that produced it.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
import threading
import time
import uuid
from typing import Any, Dict, List, Optional, Tuple

import torch

from .chat_template import ChatTemplate
from .checkpoint import CheckpointError, save_checkpoint
from .completion_request import prompt_ids, sampling_jobs
from .distributed import PARALLEL_MODES, DistributedTrainer, compute_dtype, follow, init_from_env, resolve_mode, world_size
from .engine import SamplingEngine
from .fsdp_state import fsdp_resume_dtype
from .models import Policy, load_policy
from .samples import parse_samples
from .precision import MASTER_WEIGHTS
from .prefix_cache import DEFAULT_PREFIX_CACHE_MB
from .probe_logprobs import probe_logprobs
from .resume import load_resume_weights, resume_training_state
from .retention import DiskFullError, check_space, checkpoint_bytes, prune_checkpoints
from .running_batch import LOGPROB_MODES
from .sampling import Completion
from .served import SAMPLING_WEIGHTS, ServedWeights
from .server import ApiError, bad_request, make_server
from .tokenizer import ByteTokenizer
from .train import TrainConfig, Trainer

__all__ = ["ApiError", "PolicyService", "make_server", "main"]

#: `load_format` values of SGLang's /update_weights_from_disk that mean "what the path holds"
_LOAD_FORMATS = (None, "auto", "ssr")
#: the folder under --output-dir that weights-only saves (sampler syncs) go to
SAMPLER_EXPORTS = "sampler"


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

    def health(self) -> dict:
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

    def _sample(self, body: dict, prompt: List[int]) -> Tuple[List[Completion], int]:
        return self.engine.submit(sampling_jobs(self.policy, body, prompt))

    def completions(self, body: dict) -> dict:
        self._check_model(body)
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
        completion_tokens = sum(len(r.token_ids) for r in results)
        return {"id": f"cmpl-{uuid.uuid4().hex}", "object": "text_completion", "created": int(time.time()), "model": self.policy.name,
                "policy_version": version, "choices": choices,
                "usage": {"prompt_tokens": len(prompt), "completion_tokens": completion_tokens, "total_tokens": len(prompt) + completion_tokens}}

    def chat_completions(self, body: dict) -> dict:
        self._check_model(body)
        prompt = self.tokenize({"messages": body.get("messages"), "tools": body.get("tools"), "add_generation_prompt": True})["tokens"]
        results, version = self._sample(body, prompt)
        tok = self.policy.tokenizer
        choices = [{"index": i, "message": {"role": "assistant", "content": tok.decode(r.token_ids[:-1] if r.finish_reason == "stop" else r.token_ids)},
                    "finish_reason": r.finish_reason}
                   for i, r in enumerate(results)]
        completion_tokens = sum(len(r.token_ids) for r in results)
        return {"id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion", "created": int(time.time()), "model": self.policy.name,
                "policy_version": version, "choices": choices,
                "usage": {"prompt_tokens": len(prompt), "completion_tokens": completion_tokens, "total_tokens": len(prompt) + completion_tokens}}

    def logprobs(self, body: dict) -> dict:
        """See probe_logprobs.py: what ssr compares a separate sampler's log-probs with."""
        self._check_model(body)
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
            if expected is not None and expected != self.trainer.version:
                raise ApiError(409, f"expected_version {expected}, but the trainer is at version {self.trainer.version}", "conflict")
            try:
                metrics = self.trainer.step(samples, overrides)
            except ValueError as error:
                raise ApiError(409 if "newer than the trainer" in str(error) else 400, str(error)) from None
            self.served.publish(self.policy, self.trainer.version)
        return {"version": self.trainer.version, "metrics": metrics}

    def save(self, body: dict) -> dict:
        """`{path?, weights_only?, keep?}`: a checkpoint written atomically. Resumable (weights,
        optimizer, steps, version, RNG) to `<output-dir>/v<N>` by default; `weights_only` (what a
        sampler loads) to `<output-dir>/sampler/v<N>`. `keep`: then delete all but the newest
        `keep` of that kind in that folder. A full disk is answered 507 naming the path."""
        weights_only, keep = body.get("weights_only", False), body.get("keep")
        if not isinstance(weights_only, bool):
            raise _bad("'weights_only' must be a boolean")
        if keep is not None and (not isinstance(keep, int) or isinstance(keep, bool) or keep < 1):
            raise _bad("'keep' must be a whole number of checkpoints, at least 1")
        with self.served.training():
            folder = os.path.join(self.output_dir, SAMPLER_EXPORTS) if weights_only else self.output_dir
            path = body.get("path") or os.path.join(folder, f"v{self.trainer.version}")
            if not isinstance(path, str):
                raise _bad("'path' must be a string")
            needed = checkpoint_bytes(self.policy, self.trainer, not weights_only)
            try:
                check_space(path, needed)
                manifest = save_checkpoint(self.policy, self.trainer, path, resumable=not weights_only)
                removed = prune_checkpoints(os.path.dirname(os.path.abspath(path)), keep, not weights_only) if keep else []
            except DiskFullError as error:
                raise ApiError(507, str(error), "insufficient_storage") from None
            except CheckpointError as error:
                raise _bad(str(error)) from None
            except (OSError, RuntimeError) as error:  # torch reports a failed write as a RuntimeError
                raise _storage_failure(path, error, needed) from None
        return {"path": os.path.abspath(path), "version": manifest["version"], "steps": manifest["steps"], "kind": manifest["model"]["weights"],
                "resumable": not weights_only, "removed": removed}

    def update_weights_from_disk(self, body: dict) -> dict:
        """SGLang's request (`{model_path, load_format?, abort_all_requests?}`): loads the weights of a
        checkpoint `/weights/save` wrote (by this service or another built the same way) and serves
        them at the checkpoint's version. Only the weights: the optimizer state stays this
        service's own (to continue training from a checkpoint, restart with `--resume`)."""
        path = body.get("model_path")
        if not isinstance(path, str) or not path:
            raise _failed(400, "'model_path' must be the path of a checkpoint directory written by /weights/save")
        if body.get("load_format") not in _LOAD_FORMATS:
            raise _failed(400, f"load_format {json.dumps(body.get('load_format'))} is not supported: this service loads /weights/save checkpoints (auto)")
        started = time.perf_counter()
        with self.served.training():
            try:  # every rank of a multi-process trainer loads them (rank_weights.py)
                manifest = self.trainer.load_weights(path)
            except CheckpointError as error:
                raise _failed(400, f"cannot load {path}: {error}") from None
            self.served.publish(self.policy, self.trainer.version)
        kind = manifest["model"]["weights"]
        return {"success": True, "message": f"loaded {os.path.abspath(path)} ({kind} weights) in {time.perf_counter() - started:.2f} s: serving version {self.version}",
                "num_paused_requests": 0, "policy_version": self.version}


def sampler_logprobs(policy: Policy, mode: str) -> str:
    """`--logprobs auto`: from the decode logits for the tiny model in fp32 (within ~1e-6 of the
    trainer's pass), teacher-forced otherwise (bf16 decoding drifts from it)."""
    if mode == "auto":
        fp32 = all(p.dtype == torch.float32 for p in policy.module.parameters())
        return "decode" if policy.kind == "tiny" and fp32 else "teacher-forced"
    return mode


def _storage_failure(path: str, error: Exception, needed: int) -> ApiError:
    """A save the disk refused mid-write (the space check passed: another writer filled it, or a
    quota): nothing was left behind (the partial dir is gone), and the run must stop."""
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
        return ApiError(507, str(DiskFullError(os.path.abspath(path), error.strerror or "ENOSPC")), "insufficient_storage")
    return ApiError(500, f"cannot write the checkpoint {os.path.abspath(path)} (about {needed} bytes): {str(error).splitlines()[0]}. "
                    "Check that the trainer's --output-dir is writable and has room", "storage_error")


def _failed(status: int, message: str) -> ApiError:
    """An error that also carries SGLang's `{success: false, message}` fields."""
    return ApiError(status, message, extra={"success": False, "message": message})


def default_train_config(policy: Policy) -> TrainConfig:
    """Tiny model: a large lr so a few steps visibly move it. LoRA: 2e-5. Full fine-tuning: SSR's 3e-6 after 30 steps."""
    if policy.kind == "tiny":
        return TrainConfig(lr=1e-3, warmup_steps=0)
    return TrainConfig(lr=2e-5 if policy.lora else 3e-6, warmup_steps=30)


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python3 -m ssr_trainer.service", description=__doc__.split("\n\n")[0])
    p.add_argument("--model", required=True, help="tiny | hf-config | a saved checkpoint dir | a transformers model dir or hub name")
    p.add_argument("--model-config", help="JSON (inline or a file): TinyConfig fields for tiny; a transformers config with model_type for hf-config")
    p.add_argument("--tokenizer", help="transformers tokenizer (default: the model's; byte tokenizer for tiny and hf-config)")
    p.add_argument("--chat-template", metavar="FILE", help="a Jinja chat template replacing the tokenizer's (the byte tokenizer maps "
                   "<|im_start|>, <|im_end|>, <|bos|>, <|eos|>, <|pad|> in its output to their ids)")
    p.add_argument("--lora", action="store_true", help="train a LoRA adapter (peft) instead of all weights")
    p.add_argument("--lora-rank", type=int, default=16)
    p.add_argument("--lora-alpha", type=int, default=32)
    p.add_argument("--adapter", help="resume a saved LoRA adapter dir")
    p.add_argument("--dtype", default="auto", help="auto (transformers: bf16 on GPU, fp32 on CPU; tiny: fp32) | float32 | bfloat16 | float16")
    p.add_argument("--master-weights", choices=MASTER_WEIGHTS, default="fp32",
                   help="fp32 (default): a bf16/fp16 model trains through fp32 master weights and fp32 AdamW state, the model's "
                   "weights cast from them after each step (+4 bytes per trained parameter, +4 for their gradient); none: AdamW "
                   "updates the low-precision weights in place (at lr 1e-6..3e-6 most bf16 updates round to nothing)")
    p.add_argument("--device", help="cpu | cuda | cuda:N (default: cuda when available)")
    p.add_argument("--max-model-len", type=int)
    p.add_argument("--gradient-checkpointing", action="store_true")
    p.add_argument("--served-model-name", help="the name /v1/models reports and requests must use (default: derived from --model)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="0 picks a free port (printed on start)")
    p.add_argument("--output-dir", default="checkpoints", help="where /weights/save writes v<N>/ (resumable) and sampler/v<N>/ (weights only) by default")
    p.add_argument("--resume", metavar="DIR", help="continue from a /weights/save checkpoint: weights, optimizer, steps, version, RNG "
                   "(the model flags must build the model that saved it)")
    p.add_argument("--lr", type=float)
    p.add_argument("--warmup-steps", type=int)
    p.add_argument("--train-config", help="JSON object of TrainConfig / LossConfig fields")
    p.add_argument("--threads", type=int, help="torch CPU threads")
    p.add_argument("--sampling-weights", choices=SAMPLING_WEIGHTS, default="copy",
                   help="copy: sample from a copy of the weights, also while a step trains (one more copy of the parameters in memory); "
                   "shared: sample from the trained weights, waiting for steps (no extra memory)")
    p.add_argument("--batch-window-ms", type=float, default=0.0,
                   help="how long an idle service waits at most for as many sequences as ran together last time before it starts "
                   "(default 0: later requests join the running batch at its next step anyway)")
    p.add_argument("--max-batch", type=int, default=32, help="sequences decoded together at most")
    p.add_argument("--logprobs", choices=("auto", *LOGPROB_MODES), default="auto",
                   help="where token_logprobs come from: decode (the logits the token was drawn from; free), teacher-forced "
                   "(the trainer's pass over prompt + completion: bit-identical to the trainer's, a forward per sequence); "
                   "auto: decode for the tiny model (fp32), teacher-forced for transformers models")
    p.add_argument("--prefix-cache-mb", type=float, default=DEFAULT_PREFIX_CACHE_MB,
                   help="memory for KV caches of finished sequences reused as prompt prefixes (the next turn of a conversation); 0: off")
    p.add_argument("--parallel", choices=PARALLEL_MODES, default="auto",
                   help="under torchrun (WORLD_SIZE > 1): fsdp (sharded; fp32 masters, --dtype compute) or ddp (replicated); "
                   "auto: fsdp on CUDA, ddp on CPU. Ignored in a single process")
    p.add_argument("--verbose", action="store_true", help="log every request")
    return p.parse_args(argv)


def use_chat_template(policy: Any, path: str) -> None:
    """`--chat-template FILE`: the byte tokenizer renders chats with it; a transformers tokenizer
    takes it as its own `chat_template`."""
    try:
        if isinstance(policy.tokenizer, ByteTokenizer):
            policy.tokenizer.chat_template = ChatTemplate.from_file(path)
        else:
            with open(path, encoding="utf-8") as handle:
                policy.tokenizer.inner.chat_template = handle.read()
    except (OSError, ValueError) as error:
        raise SystemExit(f"ssr-trainer: --chat-template {path}: {error}") from None


def main(argv: Optional[List[str]] = None) -> None:
    args = parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    # Under torchrun: the mode is settled (and refused with its reason) before waiting for the other ranks.
    mode = resolve_mode(args.parallel, args.device) if world_size() > 1 else None
    ranks = init_from_env(args.device) if mode else None
    device, dtype = (ranks.device if ranks else args.device), args.dtype
    if mode == "fsdp":
        dtype = "float32"  # FSDP keeps the sharded fp32 parameters as the masters and computes in --dtype
    try:
        policy, version = load_policy(args.model, lora=args.lora, lora_rank=args.lora_rank, lora_alpha=args.lora_alpha, adapter=args.adapter,
                                      model_config=args.model_config, tokenizer=args.tokenizer, dtype=dtype, device=device,
                                      max_model_len=args.max_model_len, gradient_checkpointing=args.gradient_checkpointing)
    except CheckpointError as error:  # --model DIR with a broken manifest
        raise SystemExit(f"ssr-trainer: --model {args.model}: {error}") from None
    if args.served_model_name:
        policy.name = args.served_model_name
    if args.chat_template:
        use_chat_template(policy, args.chat_template)
    try:
        overrides: Dict[str, Any] = json.loads(args.train_config) if args.train_config else {}
    except json.JSONDecodeError as error:
        raise SystemExit(f"--train-config: not JSON ({error.msg})") from None
    overrides.update({key: value for key, value in (("lr", args.lr), ("warmup_steps", args.warmup_steps)) if value is not None})
    config = default_train_config(policy).with_overrides(overrides)
    try:  # the weights before the trainer is built on them (FSDP shards what it is given), the rest after
        resume = load_resume_weights(args.resume, policy, fsdp_resume_dtype(mode, args))[1] if args.resume else None
    except CheckpointError as error:
        raise SystemExit(f"ssr-trainer: cannot resume: {error}") from None
    try:
        if ranks:
            # The tiny model stays fp32 under `auto`, as in one process.
            compute = None if policy.kind == "tiny" and args.dtype == "auto" else compute_dtype(args.dtype, device)
            trainer: Trainer = DistributedTrainer(policy, config, version, ranks, mode, compute, master_weights=args.master_weights)
        else:
            trainer = Trainer(policy, config, version=version, master_weights=args.master_weights)
    except ValueError as error:  # fp16 without masters, or without a GradScaler on this device
        raise SystemExit(f"ssr-trainer: --dtype {args.dtype} --master-weights {args.master_weights}: {error}") from None
    resumed = ""
    if resume is not None:
        try:
            resume_training_state(args.resume, resume, trainer)
        except CheckpointError as error:
            raise SystemExit(f"ssr-trainer: cannot resume: {error}") from None
        resumed = f", resumed from {os.path.abspath(args.resume)} at step {trainer.steps}"
    if ranks and ranks.rank > 0:
        follow(trainer)  # rank 0 serves; this rank trains its share of each step until rank 0 stops
        return
    service = PolicyService(policy, trainer, args.output_dir, args.sampling_weights, args.batch_window_ms, args.max_batch, args.logprobs,
                            args.prefix_cache_mb)
    server = make_server(service, args.host, args.port, args.verbose)
    host, port = server.server_address[:2]
    precision = trainer.precision.describe()
    masters = ", fp32 master weights" if precision["master_weights"] == "fp32" else ""
    parallel = f", {mode} on {ranks.world} processes" if ranks else ""
    print(f"ssr-trainer: serving {policy.name} ({policy.kind}{', lora' if policy.lora else ''}, {service.policy.parameter_count():,} parameters, "
          f"{precision['dtype']}{masters}, version {trainer.version}{resumed}{parallel}) on http://{host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if isinstance(trainer, DistributedTrainer):
            trainer.stop()


if __name__ == "__main__":
    sys.exit(main())
