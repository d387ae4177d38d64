"""The disk a checkpoint takes, from the files the service really writes (docs/rl-contract.md's table).

    PYTHON=$(trainer/hf-env)
    cd trainer && $PYTHON -m ssr_trainer.checkpoint_disk --model-config configs/qwen2.5-0.5b.json --dtype bfloat16

A model of that size need not fit in memory: the config is built with 1 and 2 layers (random
weights), one AdamW step is taken so the optimizer's moments exist, a weights-only export and a
resumable checkpoint are saved, and their sizes are extrapolated linearly to the config's layer
count (every layer holds the same tensors; the embeddings and final norm are the intercept).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from typing import Dict, List, Optional


def _bytes(path: str) -> int:
    return sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(path) for name in names)


def _measure(config: dict, layers: int, dtype: str, master_weights: str) -> List[int]:
    """[parameters, export bytes, resumable bytes] for `config` cut to `layers` layers."""
    from .models import load_policy
    from .sampling import generate
    from .service import PolicyService, default_train_config
    from .train import Trainer

    policy, version = load_policy("hf-config", model_config=json.dumps(dict(config, num_hidden_layers=layers)), dtype=dtype, device="cpu", max_model_len=64)
    trainer = Trainer(policy, default_train_config(policy).with_overrides({"warmup_steps": 0}), version=version, master_weights=master_weights)
    samples = []
    for seed, advantage in enumerate((1.0, -1.0)):
        prompt = policy.tokenizer.apply_chat_template([{"role": "user", "content": "hi"}], add_generation_prompt=True)
        done = generate(policy, prompt, 4, seed=seed, stop_ids=policy.tokenizer.stop_ids)
        ids = prompt + done.token_ids
        mask = [0] * len(prompt) + [1] * len(done.token_ids)
        samples.append({"id": f"s{seed}", "role": "solver", "groupId": "g", "episodeId": f"e{seed}", "bugId": "b", "policyVersion": 0,
                        "reward": advantage, "advantage": advantage, "finishReason": "submitted", "masked": False, "maskReason": None,
                        "tokens": {"ids": ids, "lossMask": mask, "logprobs": [None] * len(prompt) + done.logprobs}, "messages": None})
    with tempfile.TemporaryDirectory() as out:
        service = PolicyService(policy, trainer, out)
        service.train_step({"samples": samples})
        export = _bytes(service.save({"weights_only": True})["path"])
        resumable = _bytes(service.save({})["path"])
    return [policy.parameter_count(), export, resumable]


def main(argv: Optional[List[str]] = None) -> None:
    p = argparse.ArgumentParser(prog="python3 -m ssr_trainer.checkpoint_disk", description=__doc__.split("\n\n")[0])
    p.add_argument("--model-config", required=True, help="a transformers config (JSON file) with model_type and num_hidden_layers")
    p.add_argument("--dtype", default="float32", help="float32 | bfloat16 | float16")
    p.add_argument("--master-weights", default="fp32", help="fp32 | none (as the service's flag)")
    args = p.parse_args(argv)
    with open(args.model_config) as handle:
        config = json.load(handle)
    one, two = _measure(config, 1, args.dtype, args.master_weights), _measure(config, 2, args.dtype, args.master_weights)
    layers = config["num_hidden_layers"]
    full = [a + (layers - 1) * (b - a) for a, b in zip(one, two)]
    result: Dict[str, object] = {"dtype": args.dtype, "master_weights": args.master_weights, "layers": layers, "parameters": full[0],
                                 "export_bytes": full[1], "resumable_bytes": full[2], "measured": {"1": one, "2": two}}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
