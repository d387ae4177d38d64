"""Benchmark: one RL training step vs a plain forward+backward of the same batch, in the same run.

Three timings: the whole step (forward+backward with the RL loss, clipping, AdamW), the step's
forward+backward alone (`Trainer.accumulate`), and a plain next-token cross-entropy
forward+backward (the floor any LM training step pays).

    trainer/bench --model tiny --model-config '{"d_model": 256, "n_layers": 4, "n_heads": 8, "d_ff": 1024}' --batch 4 --seq-len 1024

Reports tokens/s and MFU of both and their ratio. FLOPs per token: 6N + 12·L·d·T (PaLM's
formula; N = parameters without the input embedding). Peak: ``--peak-tflops``, else the GPU's
datasheet dense bf16 figure, else (CPU) the best measured fp32 matmul rate, labelled as such.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from typing import Any, Dict, List, Optional, Tuple

import torch
from torch.nn import functional as F

from .models import Policy, load_policy
from .precision import MASTER_WEIGHTS
from .samples import TokenData, TrainingSample
from .train import TrainConfig, Trainer

#: dense bf16 TFLOP/s by device-name fragment (datasheets)
GPU_PEAK_TFLOPS = {"H200": 989.0, "H100": 989.0, "A100": 312.0, "L40S": 362.0, "A10G": 125.0, "L4": 121.0, "4090": 165.0}


def synthetic_batch(policy: Policy, batch: int, seq_len: int, response_fraction: float, seed: int = 0) -> List[TrainingSample]:
    """`batch` sequences of `seq_len` random tokens; the last `response_fraction` of each is trained,
    half the advantages +1 and half -1, sampler logprobs of a uniform distribution (timing only)."""
    generator = torch.Generator().manual_seed(seed)
    vocab = min(policy.tokenizer.vocab_size, getattr(policy.module.config, "vocab_size", policy.tokenizer.vocab_size))
    ids = torch.randint(0, vocab, (batch, seq_len), generator=generator)
    start = max(1, int(seq_len * (1 - response_fraction)))
    uniform = -math.log(vocab)
    samples = []
    for row in range(batch):
        mask = [0] * start + [1] * (seq_len - start)
        samples.append(TrainingSample(
            id=f"bench-{row}", role="solver" if row % 2 == 0 else "injector", group_id=f"g{row % 2}", episode_id=f"e{row}", bug_id=None,
            policy_version=0, reward=0.0, advantage=1.0 if row % 4 < 2 else -1.0, finish_reason="bench", masked=False, mask_reason=None,
            tokens=TokenData(ids=ids[row].tolist(), loss_mask=mask, logprobs=[None] * start + [uniform] * (seq_len - start)),
            messages=None,
        ))
    return samples


def flops_per_token(policy: Policy, seq_len: int) -> float:
    module = policy.module
    embed = module.get_input_embeddings() if hasattr(module, "get_input_embeddings") else getattr(module, "embed", None)
    n = sum(p.numel() for p in module.parameters()) - (embed.weight.numel() if embed is not None else 0)
    head = module.get_output_embeddings() if hasattr(module, "get_output_embeddings") else getattr(module, "lm_head", None)
    if embed is not None and head is not None and head.weight is embed.weight:
        n += head.weight.numel()  # tied: the output projection is real compute
    config = getattr(policy, "config", None) or module.config
    layers = getattr(config, "n_layers", None) or config.num_hidden_layers
    width = getattr(config, "d_model", None) or config.hidden_size
    return 6.0 * n + 12.0 * layers * width * seq_len


def peak_flops(device: torch.device, override_tflops: Optional[float]) -> Tuple[float, str]:
    if override_tflops:
        return override_tflops * 1e12, f"given {override_tflops} TFLOP/s"
    if device.type == "cuda":
        name = torch.cuda.get_device_name(device)
        for fragment, tflops in GPU_PEAK_TFLOPS.items():
            if fragment in name:
                return tflops * 1e12, f"{name} datasheet dense bf16 {tflops} TFLOP/s"
        return 0.0, f"{name}: unknown peak (pass --peak-tflops)"
    best = 0.0
    for size in (256, 512, 1024):  # the best rate over shapes and tries: the machine's matmul peak
        a, b = torch.randn(size, size), torch.randn(size, size)
        for _ in range(3):
            started = time.perf_counter()
            a @ b
            best = max(best, 2 * size ** 3 / (time.perf_counter() - started))
    return best, f"CPU: best measured fp32 matmul rate {best / 1e9:.1f} GFLOP/s with {torch.get_num_threads()} thread(s)"


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def plain_forward_backward(policy: Policy, ids: torch.Tensor) -> None:
    """Next-token cross-entropy over the whole batch: what any LM training step does at least."""
    module = policy.module
    out = module(input_ids=ids) if policy.kind == "hf" else module(ids)
    logits = out.logits if hasattr(out, "logits") else out
    loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]).float(), ids[:, 1:].reshape(-1))
    loss.backward()
    module.zero_grad(set_to_none=True)


def peak_memory(device: torch.device) -> Tuple[int, str]:
    """Bytes at the high-water mark: CUDA's allocator since `reset_peak_memory_stats`, else this
    process's peak resident memory over its whole life (CPU)."""
    if device.type == "cuda":
        return int(torch.cuda.max_memory_allocated(device)), "CUDA max_memory_allocated during the benchmark"
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024, "the process's peak resident memory (ru_maxrss, whole life)"


def run(policy: Policy, batch: int, seq_len: int, steps: int, warmup: int, response_fraction: float, peak_tflops: Optional[float],
        master_weights: str = "fp32") -> Dict[str, Any]:
    device = policy.device
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
    samples = synthetic_batch(policy, batch, seq_len, response_fraction)
    # The train step includes what the precision rules cost: fp32 masters' gradients, AdamW on them, the cast back.
    trainer = Trainer(policy, TrainConfig(lr=0.0, warmup_steps=0, micro_batch_tokens=batch * seq_len), master_weights=master_weights)
    ids = torch.tensor([s.tokens.ids for s in samples], device=device)

    def timed(fn) -> float:
        times = []
        for i in range(warmup + steps):
            _sync(device)
            started = time.perf_counter()
            fn()
            _sync(device)
            if i >= warmup:
                times.append(time.perf_counter() - started)
        return statistics.median(times)

    def train_step() -> None:
        trainer.version = 0  # the same samples every time: never let them go stale
        trainer.step(samples)

    def train_forward_backward() -> None:
        trainer.version = 0
        trainer.accumulate(samples)
        trainer.optimizer.zero_grad(set_to_none=True)

    # lr 0: the weights stay put, so every repetition measures the same work.
    step_seconds = timed(train_step)
    rl_seconds = timed(train_forward_backward)
    plain_seconds = timed(lambda: plain_forward_backward(policy, ids))
    tokens = batch * seq_len
    flops = flops_per_token(policy, seq_len) * tokens
    peak, peak_note = peak_flops(device, peak_tflops)

    def figures(seconds: float) -> Dict[str, float]:
        return {"seconds": seconds, "tokens_per_second": tokens / seconds, "mfu": (flops / seconds / peak) if peak else float("nan")}

    step, rl, plain = figures(step_seconds), figures(rl_seconds), figures(plain_seconds)
    memory, memory_note = peak_memory(device)
    return {"model": policy.name, "kind": policy.kind, "parameters": policy.parameter_count(), "device": str(device),
            "batch": batch, "seq_len": seq_len, "tokens": tokens, "trained_fraction": response_fraction,
            "flops_per_step": flops, "peak": peak_note, "train_step": step, "rl_forward_backward": rl, "plain_forward_backward": plain,
            "step_over_plain_time": step_seconds / plain_seconds, "rl_fwd_bwd_over_plain_time": rl_seconds / plain_seconds,
            "precision": trainer.precision.describe(), "torch": torch.__version__, "peak_memory_bytes": memory, "peak_memory": memory_note,
            "lora": policy.lora, "weights_dtype": str(next(policy.module.parameters()).dtype).replace("torch.", ""), "trainable_parameters": sum(p.numel() for p in policy.trainable_parameters())}


def main(argv: Optional[List[str]] = None) -> None:
    p = argparse.ArgumentParser(prog="trainer/bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="tiny")
    p.add_argument("--model-config", help="TinyConfig fields (tiny) or a transformers config (hf-config), JSON or a file")
    p.add_argument("--lora", action="store_true")
    p.add_argument("--dtype", default="auto")
    p.add_argument("--master-weights", choices=MASTER_WEIGHTS, default="fp32", help="as the service's flag")
    p.add_argument("--device")
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--seq-len", type=int, default=512)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--response-fraction", type=float, default=0.5, help="share of each sequence that is trained (lossMask 1)")
    p.add_argument("--peak-tflops", type=float)
    p.add_argument("--threads", type=int)
    p.add_argument("--json", action="store_true", help="print the JSON result only")
    args = p.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    policy, _ = load_policy(args.model, lora=args.lora, model_config=args.model_config, dtype=args.dtype, device=args.device)
    result = run(policy, args.batch, args.seq_len, args.steps, args.warmup, args.response_fraction, args.peak_tflops, args.master_weights)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['model']} ({result['kind']}, {result['parameters']:,} parameters) on {result['device']}, torch {result['torch']}")
    print(f"batch {args.batch} x {args.seq_len} tokens, {args.response_fraction:.0%} trained; peak: {result['peak']}; "
          f"{result['precision']['dtype']}, master weights {result['precision']['master_weights']}")
    rows = (("RL train step", "train_step"), ("RL fwd+bwd", "rl_forward_backward"), ("plain fwd+bwd", "plain_forward_backward"))
    for label, key in rows:
        r = result[key]
        print(f"  {label:14s} {r['seconds'] * 1000:9.1f} ms  {r['tokens_per_second']:12,.0f} tokens/s  MFU {r['mfu']:.2%}")
    print(f"  peak memory {result['peak_memory_bytes'] / 2**30:.2f} GiB ({result['peak_memory']})")
    print(f"  time vs plain fwd+bwd: train step {result['step_over_plain_time']:.2f}x, RL fwd+bwd (no optimizer) {result['rl_fwd_bwd_over_plain_time']:.2f}x")


if __name__ == "__main__":
    main()
