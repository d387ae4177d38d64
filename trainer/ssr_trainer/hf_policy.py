"""A transformers model as a Policy (transformers and peft are imported only by whoever builds one)."""

from __future__ import annotations

import os
from typing import Any, Optional

from .policy import Policy


# Model types whose last hidden state, fed to the output embedding, gives the logits exactly (no
# logit scaling or soft-capping after the head): for these the vocab projection is chunked too.
_PLAIN_HEAD_MODEL_TYPES = {"llama", "mistral", "qwen2", "qwen3", "qwen2_moe", "qwen3_moe", "olmo", "olmo2", "phi3", "gpt2", "gpt_neox"}


class HFPolicy(Policy):
    kind = "hf"

    def __init__(self, model: Any, tokenizer: Any, name: str, lora: bool = False, max_model_len: Optional[int] = None) -> None:
        self.module = model
        self.tokenizer = tokenizer
        self.name = name
        self.lora = lora
        config = model.config
        self.max_model_len = max_model_len or getattr(config, "max_position_embeddings", None) or 4096
        self.hidden_mode = getattr(config, "model_type", None) in _PLAIN_HEAD_MODEL_TYPES
        self._keep_arg = _logits_to_keep_arg(model)

    def hidden(self, input_ids, attention_mask):
        if not self.hidden_mode:
            # Full logits in the model's dtype; only their fp32 conversion is chunked.
            return self.module(input_ids=input_ids, attention_mask=attention_mask, use_cache=False).logits
        kwargs = {self._keep_arg: 1} if self._keep_arg else {}
        out = self.module(input_ids=input_ids, attention_mask=attention_mask, use_cache=False, output_hidden_states=True, **kwargs)
        return out.hidden_states[-1]

    def head(self, hidden):
        return self.module.get_output_embeddings()(hidden) if self.hidden_mode else hidden

    def decode_step(self, input_ids, cache):
        out = self.module(input_ids=input_ids, past_key_values=cache, use_cache=True)
        return out.logits[:, -1], out.past_key_values

    def save(self, path: str) -> str:
        os.makedirs(path, exist_ok=True)
        self.module.save_pretrained(path)
        inner = getattr(self.tokenizer, "inner", None)
        if inner is not None:
            inner.save_pretrained(path)
        return "lora" if self.lora else "full"

    def stage_weights(self, path: str):
        from .hf_weights import read_adapter_weights, read_full_weights

        return (read_adapter_weights if self.lora else read_full_weights)(self.module, path)

    def weights_layout(self):
        if not self.lora:
            return super().weights_layout()
        from peft import get_peft_model_state_dict

        return {name: (tuple(tensor.shape), tensor.dtype) for name, tensor in get_peft_model_state_dict(self.module).items()}

    def apply_weights(self, staged) -> None:
        from .hf_weights import apply_adapter_weights

        if self.lora:
            apply_adapter_weights(self.module, staged)
        else:
            self.module.load_state_dict(staged, strict=True)


def _logits_to_keep_arg(model: Any) -> Optional[str]:
    import inspect

    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    params = inspect.signature(base.forward).parameters
    for name in ("logits_to_keep", "num_logits_to_keep"):
        if name in params:
            return name
    return None
