"""Building the policy the service's flags name (`load_policy`): tiny, a saved tiny checkpoint,
a transformers config with random weights, or a transformers model (+ LoRA through peft).

The policies themselves: policy.py (the interface, `batch_logprobs`), tiny_policy.py, hf_policy.py;
re-exported here, where callers have always found them.
"""

from __future__ import annotations

import json
import os
from typing import Any, Optional, Tuple

import torch

from .checkpoint import saved_version
from .hf_policy import HFPolicy
from .policy import Policy, batch_logprobs
from .tiny_model import TinyConfig
from .tiny_policy import TINY_CONFIG_FILE, TinyPolicy
from .tokenizer import ByteTokenizer, HFTokenizer

__all__ = ["HFPolicy", "Policy", "TinyPolicy", "batch_logprobs", "load_policy"]


def load_policy(
    model: str,
    *,
    lora: bool = False,
    lora_rank: int = 16,
    lora_alpha: int = 32,
    adapter: Optional[str] = None,
    model_config: Optional[str] = None,
    tokenizer: Optional[str] = None,
    dtype: str = "auto",
    device: Optional[str] = None,
    max_model_len: Optional[int] = None,
    gradient_checkpointing: bool = False,
) -> Tuple[Policy, int]:
    """Builds the policy named by `model`; returns it with the version it was saved at (0 if new).

    - ``tiny``: the byte-level model (``model_config``: a JSON file or string of TinyConfig fields).
    - a directory written by ``/weights/save`` for the tiny model.
    - ``hf-config``: a transformers model randomly initialised from ``model_config`` (a config.json
      path or JSON string, with ``model_type``); no download. Byte tokenizer unless ``tokenizer``.
    - anything else: a transformers model directory or hub name (from_pretrained).
    """
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    version = saved_version(model)
    # The tiny model is fp32 unless a dtype is named (auto too: it exists for CPU tests).
    tiny_dtype = None if dtype == "auto" else _dtype(dtype, device)
    if model == "tiny":
        config = TinyConfig(**_json_arg(model_config)) if model_config else TinyConfig()
        if max_model_len:
            config.max_seq_len = max_model_len
        return TinyPolicy(config, device=device, dtype=tiny_dtype), 0
    if os.path.isfile(os.path.join(model, TINY_CONFIG_FILE)):
        return TinyPolicy.load(model, device=device, dtype=tiny_dtype), version
    return _load_hf(model, lora, lora_rank, lora_alpha, adapter, model_config, tokenizer, dtype, device, max_model_len, gradient_checkpointing), version


def _load_hf(model, lora, lora_rank, lora_alpha, adapter, model_config, tokenizer, dtype, device, max_model_len, gradient_checkpointing) -> HFPolicy:
    try:
        import transformers
    except ImportError as error:
        raise RuntimeError(f"--model {model}: transformers is not installed (only --model tiny works without it)") from error
    torch_dtype = _dtype(dtype, device)
    if model == "hf-config":
        if not model_config:
            raise ValueError("--model hf-config needs --model-config (a config.json path or JSON with model_type)")
        fields = _json_arg(model_config)
        config = transformers.AutoConfig.for_model(**fields)
        # Seeded, as the tiny model: the same weights in every process (a LoRA checkpoint does not
        # hold its base, so a resume must rebuild the same one); the caller's RNG is left alone.
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(0)
            net = transformers.AutoModelForCausalLM.from_config(config)
        net.to(dtype=torch_dtype)
        name = f"hf-config:{fields['model_type']}"
    else:
        net = transformers.AutoModelForCausalLM.from_pretrained(model, torch_dtype=torch_dtype)
        name = model
    net.to(device)
    tok_source = tokenizer or (None if model == "hf-config" else model)
    if tok_source:
        inner = transformers.AutoTokenizer.from_pretrained(tok_source)
        eos = getattr(getattr(net, "generation_config", None), "eos_token_id", None)
        extra = eos if isinstance(eos, list) else ([eos] if isinstance(eos, int) else [])
        tok: Any = HFTokenizer(inner, extra)
    else:
        tok = ByteTokenizer()
        if net.config.vocab_size < tok.vocab_size:
            raise ValueError(f"the byte tokenizer needs vocab_size >= {tok.vocab_size}; the config has {net.config.vocab_size}")
    if gradient_checkpointing:
        # Non-reentrant: with LoRA the frozen embeddings' outputs need no grad, which the
        # reentrant variant would take as "nothing to backpropagate".
        net.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        net.config.use_cache = False
    if lora or adapter:
        try:
            import peft
        except ImportError as error:
            raise RuntimeError("--lora/--adapter: peft is not installed") from error
        if adapter:
            net = peft.PeftModel.from_pretrained(net, adapter, is_trainable=True)
        else:
            net = peft.get_peft_model(net, peft.LoraConfig(r=lora_rank, lora_alpha=lora_alpha, target_modules="all-linear", task_type="CAUSAL_LM"))
        _adapters_in_fp32(net)
    return HFPolicy(net, tok, name, lora=bool(lora or adapter), max_model_len=max_model_len)


def _adapters_in_fp32(net: Any) -> None:
    """LoRA's trained parameters in fp32 whatever the base's dtype: they are few, and bf16 adapters
    would lose small updates as bf16 weights do (peft's forward casts the input to the adapter's dtype)."""
    for param in net.parameters():
        if param.requires_grad and param.dtype != torch.float32:
            param.data = param.data.float()


def _dtype(dtype: str, device: str) -> torch.dtype:
    if dtype == "auto":
        return torch.bfloat16 if device.startswith("cuda") else torch.float32
    try:
        return {"float32": torch.float32, "fp32": torch.float32, "bfloat16": torch.bfloat16, "bf16": torch.bfloat16, "float16": torch.float16}[dtype]
    except KeyError:
        raise ValueError(f"unknown dtype {dtype!r}: float32, bfloat16 or float16") from None


def _json_arg(value: str) -> dict:
    """A JSON object given inline or as a file path."""
    text = value
    if not value.lstrip().startswith("{"):
        with open(value) as handle:
            text = handle.read()
    parsed = json.loads(text)
    if not isinstance(parsed, dict):
        raise ValueError(f"expected a JSON object, got {type(parsed).__name__}")
    return parsed
