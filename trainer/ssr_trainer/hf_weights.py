"""Loading what `HFPolicy.save` wrote back into an already built transformers model (a resume).

Imported only for transformers policies (needs transformers, and peft for LoRA).
"""

from __future__ import annotations

from typing import Any

import torch


def load_full_weights(module: Any, path: str) -> None:
    """All weights from a `save_pretrained` dir. transformers reads its own files (shards, key
    renames across versions); the values are then copied into the live model, keys matched strictly."""
    dtype = next(module.parameters()).dtype
    saved = type(module).from_pretrained(path, torch_dtype=dtype)
    module.load_state_dict(saved.state_dict(), strict=True)


def load_adapter_weights(module: Any, path: str) -> None:
    """The LoRA adapter weights from a peft `save_pretrained` dir, checked to have all landed."""
    from peft import get_peft_model_state_dict, load_peft_weights, set_peft_model_state_dict

    device = next(module.parameters()).device
    weights = load_peft_weights(path, device=str(device))
    set_peft_model_state_dict(module, weights)
    live = get_peft_model_state_dict(module)
    if set(live) != set(weights):
        missing, extra = sorted(set(live) - set(weights)), sorted(set(weights) - set(live))
        raise ValueError(f"the adapter's tensors do not match the model's LoRA layers (missing {missing[:3]}, unexpected {extra[:3]})")
    for name, value in weights.items():
        if not torch.equal(live[name], value.to(live[name].dtype)):
            raise ValueError(f"the adapter tensor {name} did not load")
