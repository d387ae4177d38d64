"""The policy service's command line: one process that samples (a vLLM-compatible subset) and trains one policy.

    /usr/bin/python3 -m ssr_trainer.service --model tiny --port 8000
    /usr/bin/python3 -m ssr_trainer.service --model tiny --port 8000 --resume checkpoints/v12

Endpoints: GET /health, GET /v1/models, POST /tokenize, POST /v1/completions,
POST /v1/chat/completions (text only), POST /train/step, POST /weights/save,
POST /update_weights_from_disk (SGLang's body: serve a checkpoint /weights/save wrote),
POST /logprobs (the served weights' log-probs of a given continuation: ssr's sampler check).
Concurrent completions are decoded together by continuous batching, prompts prefilled after
their longest cached prefix (engine.py), from weights that never change under a running sequence
(served.py), and every completion reports the `policy_version` of the weights that produced it.
The endpoints: policy_service.py (sampling, training) and weights_endpoints.py (saving, loading).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Optional

import torch

from .chat_template import ChatTemplate
from .checkpoint import CheckpointError
from .distributed import PARALLEL_MODES, DistributedTrainer, compute_dtype, follow, init_from_env, resolve_mode, world_size
from .fsdp_state import fsdp_resume_dtype
from .models import Policy, load_policy
from .policy_service import PolicyService, sampler_logprobs
from .precision import MASTER_WEIGHTS
from .prefix_cache import DEFAULT_PREFIX_CACHE_MB
from .resume import load_resume_weights, resume_training_state
from .running_batch import LOGPROB_MODES
from .served import SAMPLING_WEIGHTS
from .server import ApiError, make_server
from .tokenizer import ByteTokenizer
from .train import TrainConfig, Trainer
from .weights_endpoints import SAMPLER_EXPORTS

__all__ = ["ApiError", "PolicyService", "SAMPLER_EXPORTS", "default_train_config", "make_server", "main", "sampler_logprobs"]


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
