"""Reading what `HFPolicy.save` wrote (into host memory), then copying it into an already built
transformers model: a resume, or `/update_weights_from_disk`. Reading and copying are apart so
that a multi-process trainer can have every rank read before any rank changes (rank_weights.py).

Imported only for transformers policies (needs transformers, and peft for LoRA).
"""

from __future__ import annotations

from typing import Any, Dict

import torch


def read_full_weights(module: Any, path: str) -> Dict[str, torch.Tensor]:
    """All weights of a `save_pretrained` dir, on the CPU. transformers reads its own files (shards,
    key renames across versions) into a model of the live one's class, whose state is returned."""
    dtype = next(module.parameters()).dtype
    return type(module).from_pretrained(path, torch_dtype=dtype).state_dict()


def read_adapter_weights(module: Any, path: str) -> Dict[str, torch.Tensor]:
    """The LoRA adapter weights of a peft `save_pretrained` dir, on the CPU, checked to name
    exactly the model's LoRA tensors."""
    from peft import get_peft_model_state_dict, load_peft_weights

    weights = load_peft_weights(path, device="cpu")
    live = get_peft_model_state_dict(module)
    if set(live) != set(weights):
        missing, extra = sorted(set(live) - set(weights)), sorted(set(weights) - set(live))
        raise ValueError(f"the adapter's tensors do not match the model's LoRA layers (missing {missing[:3]}, unexpected {extra[:3]})")
    return weights


def apply_adapter_weights(module: Any, weights: Dict[str, torch.Tensor]) -> None:
    """Copies `read_adapter_weights`' tensors into the model, checked to have all landed."""
    from peft import get_peft_model_state_dict, set_peft_model_state_dict

    set_peft_model_state_dict(module, weights)
    live = get_peft_model_state_dict(module)
    for name, value in weights.items():
        if not torch.equal(live[name], value.to(device=live[name].device, dtype=live[name].dtype)):
            raise ValueError(f"the adapter tensor {name} did not load")
