"""Issue 22's GPU check in one command, for a GPU lent for minutes (no network, no weights to download):

    trainer/gpu-check                      # on a CUDA machine: Qwen2.5-0.5B's config, random weights, bf16
    trainer/gpu-check --tiny               # the same phases on a CPU with the tiny byte model (tests/test_gpu_check.py)

Phases, each timed and recorded as it ends (a hard stop keeps what was done):
1. `bench-full`: trainer/bench's step (bf16 weights, fp32 master weights and AdamW state), full fine-tuning.
2. `bench-lora`: the same with a LoRA adapter (peft; fp32 adapters on the bf16 base).
3. `sync`: two services as a run uses them, a trainer and a sampler, each a `python -m ssr_trainer.service`:
   the trainer samples a group, trains one step on it (lr 1e-2: the weights move visibly), saves its
   weights (`weights_only`), the sampler loads them (`/update_weights_from_disk`) and must report the
   version; then ssr's sampler check (src/training/verify-sampler.ts): the sampler samples 16 tokens
   after the fixed probe prompt and the trainer's `/logprobs` scores them, mean |difference| <= 0.05,
   measured before the sync (the sampler still serves version 0) and after.
The summary goes to `<out>/gpu-check.json` and `gpu-check.md` (`--out`, default $OUT when set).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional

import torch

from . import bench
from .gpu_check_services import SYNC_LR, sync_check
from .gpu_check_summary import write_summary
from .models import load_policy

TRAINER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CONFIG = os.path.join(TRAINER_DIR, "configs", "qwen2.5-0.5b.json")
#: --tiny: the byte model, small enough for a CI test of every phase
TINY_CONFIG = {"d_model": 32, "n_layers": 2, "n_heads": 2, "d_ff": 64, "seed": 1}
#: --tiny-hf: a Qwen2-shaped transformers config of the same size (needs transformers + peft)
TINY_HF_CONFIG = {"model_type": "qwen2", "vocab_size": 320, "hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2,
                  "num_attention_heads": 2, "num_key_value_heads": 1, "max_position_embeddings": 512, "tie_word_embeddings": True}


def parse_args(argv: Optional[List[str]]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="trainer/gpu-check", description=__doc__.split("\n\n")[0])
    size = p.add_mutually_exclusive_group()
    size.add_argument("--tiny", action="store_true", help="the tiny byte model on the CPU (no transformers; no LoRA phase)")
    size.add_argument("--tiny-hf", action="store_true", help="a tiny Qwen2 config through transformers + peft on the CPU")
    p.add_argument("--model-config", default=DEFAULT_CONFIG, help="the transformers config (random weights) for the GPU run")
    p.add_argument("--device", help="default: cuda when available, else cpu")
    p.add_argument("--dtype", default="bfloat16")
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--seq-len", type=int, default=2048)
    p.add_argument("--steps", type=int, default=3, help="timed repetitions of each benchmark (after --warmup)")
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--peak-tflops", type=float, help="default: the datasheet's dense bf16 figure (H100 / H200: 989)")
    p.add_argument("--budget-s", type=float, default=420.0, help="phases that would start later than this are skipped (trainer/gpu-check "
                   "also kills everything at its hard timeout)")
    p.add_argument("--phases", default="bench-full,bench-lora,sync", help="which phases to run, comma-separated (default: all three)")
    p.add_argument("--out", default=os.environ.get("OUT") or None, help="where gpu-check.json and gpu-check.md go (default: $OUT)")
    args = p.parse_args(argv)
    if args.tiny or args.tiny_hf:
        args.device = args.device or "cpu"
        args.batch, args.seq_len, args.steps, args.warmup = min(args.batch, 2), min(args.seq_len, 64), min(args.steps, 1), 0
    return args


def model_flags(args: argparse.Namespace) -> Dict[str, Any]:
    """What the phases build: load_policy's arguments (and the service's flags for the same model)."""
    if args.tiny:
        return {"model": "tiny", "model_config": json.dumps(TINY_CONFIG), "dtype": args.dtype}
    config = json.dumps(TINY_HF_CONFIG) if args.tiny_hf else args.model_config
    return {"model": "hf-config", "model_config": config, "dtype": args.dtype}


def bench_phase(args: argparse.Namespace, lora: bool) -> Dict[str, Any]:
    flags = model_flags(args)
    policy, _ = load_policy(flags["model"], lora=lora, model_config=flags["model_config"], dtype=flags["dtype"], device=args.device)
    try:
        return bench.run(policy, args.batch, args.seq_len, args.steps, args.warmup, 0.5, args.peak_tflops, master_weights="fp32")
    finally:
        del policy
        if torch.cuda.is_available():
            torch.cuda.empty_cache()


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    args.device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    started = time.monotonic()
    summary: Dict[str, Any] = {
        "mode": "tiny" if args.tiny else "tiny-hf" if args.tiny_hf else "config", "device": args.device, "torch": torch.__version__,
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None, "model": model_flags(args),
        "batch": args.batch, "seq_len": args.seq_len, "dtype": args.dtype, "master_weights": "fp32",
        "peak_assumed": "--peak-tflops" if args.peak_tflops else "H100 / H200: 989 TFLOP/s dense bf16 (datasheet); CPU: the best measured fp32 matmul rate",
        "sync_lr": SYNC_LR, "phases": {}, "budget_s": args.budget_s, "finished": False,
    }

    def stop(signum: int, _frame: Any) -> None:  # trainer/gpu-check's timeout: record it, then unwind (services are killed in finally)
        summary["stopped"] = f"signal {signum} (the overall timeout) after {time.monotonic() - started:.0f} s"
        raise SystemExit(124)

    signal.signal(signal.SIGTERM, stop)
    chosen = set(args.phases.split(","))
    unknown = chosen - {"bench-full", "bench-lora", "sync"}
    if unknown:
        raise SystemExit(f"trainer/gpu-check: --phases: unknown {', '.join(sorted(unknown))} (bench-full, bench-lora, sync)")
    phases: List[tuple] = [("bench-full", 30.0, lambda: bench_phase(args, lora=False))]
    if args.tiny:
        summary["phases"]["bench-lora"] = {"skipped": "the tiny byte model has no LoRA (--tiny-hf or a GPU run covers it)"}
    else:
        phases.append(("bench-lora", 30.0, lambda: bench_phase(args, lora=True)))
    with tempfile.TemporaryDirectory(prefix="ssr-gpu-check-") as scratch:
        phases.append(("sync", 60.0, lambda: sync_check(model_flags(args), args.device, scratch, deadline=started + args.budget_s)))
        try:
            run_phases([phase for phase in phases if phase[0] in chosen], summary, started, args)
            summary["finished"] = True
        finally:
            summary["seconds"] = round(time.monotonic() - started, 1)
            write_summary(summary, args.out)
    failed = [name for name, phase in summary["phases"].items() if "error" in phase]
    return 1 if failed else 0


def run_phases(phases: List[tuple], summary: Dict[str, Any], started: float, args: argparse.Namespace) -> None:
    for name, needs_s, phase in phases:
        left = args.budget_s - (time.monotonic() - started)
        if left < needs_s:
            summary["phases"][name] = {"skipped": f"{left:.0f} s of the {args.budget_s:.0f} s budget left, {needs_s:.0f} s needed"}
            continue
        began = time.monotonic()
        summary["phases"][name] = {"interrupted": "the overall timeout stopped it"}  # replaced when it ends
        result = _attempt(phase)
        result["phase_seconds"] = round(time.monotonic() - began, 1)
        summary["phases"][name] = result
        print(f"gpu-check: {name}: {json.dumps(result)[:400]}", flush=True)
        write_summary(summary, args.out)  # as each phase ends: a hard stop later keeps it


def _attempt(phase: Callable[[], Dict[str, Any]]) -> Dict[str, Any]:
    try:
        return phase()
    except Exception as error:  # noqa: BLE001 (a phase's failure is recorded; the next phase still runs)
        return {"error": f"{type(error).__name__}: {error}"}


if __name__ == "__main__":
    sys.exit(main())
