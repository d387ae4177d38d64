"""What model a checkpoint belongs to: the facts a resume must find unchanged.

A resumed service builds its model from its own flags, then loads the checkpoint's weights and
optimizer state into it. Both fit only the same architecture, dtype and set of trained parameters,
and a mismatch can fail deep inside `load_state_dict` or, worse, not fail (Adam's moments are
matched to parameters by position). So a checkpoint records its model's identity, and a resume
compares it field by field and names every difference.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Dict, List

# The transformers config fields worth showing a human (the fingerprint covers every shape).
_HF_FIELDS = ("model_type", "vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
              "num_key_value_heads", "tie_word_embeddings")


def model_identity(policy: Any) -> Dict[str, Any]:
    """Kind, full or LoRA, dtype(s), config fields, parameter counts and a fingerprint of every
    parameter's name, shape and trainability. JSON-ready (as read back from a manifest)."""
    named = list(policy.module.named_parameters())
    lines = [f"{name} {tuple(p.shape)} {'trained' if p.requires_grad else 'frozen'}" for name, p in named]
    identity = {
        "kind": policy.kind,
        "weights": "lora" if policy.lora else "full",
        "dtype": ",".join(sorted({str(p.dtype).replace("torch.", "") for _, p in named})),
        "config": _config(policy),
        "parameters": sum(p.numel() for _, p in named),
        "trainable_parameters": sum(p.numel() for _, p in named if p.requires_grad),
        "architecture": hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16],
    }
    if policy.lora:
        # The base is not in a LoRA checkpoint: the same shapes with other values (another
        # --model of the same architecture) would silently resume the adapter on the wrong base.
        identity["frozen_weights"] = _sample_digest([p for _, p in named if not p.requires_grad])
    return json.loads(json.dumps(identity))


def _sample_digest(params: List[Any]) -> str:
    """A digest of 64 evenly spaced values of each tensor: cheap on a multi-GB base, exact."""
    picked = [p.detach().reshape(-1)[:: max(1, p.numel() // 64)][:64].float().tolist() for p in params]
    return hashlib.sha256(json.dumps(picked).encode()).hexdigest()[:16]


def _config(policy: Any) -> Dict[str, Any]:
    if policy.kind == "tiny":
        return policy.config.to_dict()
    config = policy.module.config
    fields = {name: getattr(config, name) for name in _HF_FIELDS if getattr(config, name, None) is not None}
    peft_config = getattr(policy.module, "peft_config", None)
    if peft_config:
        lora = next(iter(peft_config.values()))
        fields.update(lora_rank=lora.r, lora_alpha=lora.lora_alpha)
    return fields


def identity_mismatches(saved: Dict[str, Any], current: Dict[str, Any]) -> List[str]:
    """Every field where the checkpoint's model differs from this service's, worded for a human."""
    problems = []
    for key in ("kind", "weights", "dtype"):
        if saved.get(key) != current.get(key):
            problems.append(f"{key}: checkpoint {_show(saved.get(key))}, this service {_show(current.get(key))}")
    old, new = saved.get("config") or {}, current.get("config") or {}
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            problems.append(f"config.{key}: checkpoint {_show(old.get(key))}, this service {_show(new.get(key))}")
    if not problems and saved.get("architecture") != current.get("architecture"):
        problems.append(f"parameters (names or shapes): checkpoint {saved.get('parameters')} ({saved.get('trainable_parameters')} trained), "
                        f"this service {current.get('parameters')} ({current.get('trainable_parameters')} trained)")
    if not problems and saved.get("frozen_weights") != current.get("frozen_weights"):
        problems.append("frozen base weights: this service's base model is not the one the adapter was trained on (another --model?)")
    return problems


def _show(value: Any) -> str:
    return json.dumps(value) if value is not None else "(none)"
