"""Policies: a model, its tokenizer and the two passes everything else needs.

- ``hidden(ids)`` + ``head(hidden)``: the teacher-forced pass. Training and the service's reported
  logprobs both go through ``batch_logprobs`` below, so a sample's ratio is 1 at equal versions.
- ``decode_step(ids, cache)``: incremental logits for sampling.

``TinyPolicy`` needs nothing but torch; ``HFPolicy`` imports transformers (and peft for LoRA)
only when one is built.
"""

from __future__ import annotations

import json
import os
from typing import Any, List, Optional, Tuple

import torch

from . import tiny_batch
from .checkpoint import saved_version
from .loss import DEFAULT_LOGPROB_CHUNK, target_logprobs
from .tiny_model import TinyByteLM, TinyConfig
from .torch_io import torch_save
from .tokenizer import ByteTokenizer, HFTokenizer

TINY_CONFIG_FILE = "tiny_config.json"
TINY_WEIGHTS_FILE = "model.pt"


class Policy:
    kind = "base"
    name: str
    tokenizer: Any
    module: torch.nn.Module
    max_model_len: int
    lora = False

    @property
    def device(self) -> torch.device:
        return next(self.module.parameters()).device

    def hidden(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def head(self, hidden: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def decode_step(self, input_ids: torch.Tensor, cache: Any) -> Tuple[torch.Tensor, Any]:
        raise NotImplementedError

    # Batched decoding (the service's running batch, running_batch.py). The defaults go row by row with `decode_step`:
    # correct for any model, no faster; the tiny model overrides them with padded forwards.
    def prefill(self, prompts: List[List[int]]) -> Tuple[torch.Tensor, List[Any]]:
        """Next-token logits [B, V] after each prompt, and each prompt's own cache (for `batch_cache`)."""
        rows = [self.decode_step(torch.tensor([prompt], device=self.device), None) for prompt in prompts]
        return torch.cat([logits for logits, _ in rows]), [cache for _, cache in rows]

    def batch_cache(self, caches: List[Any]) -> Any:
        """One batch state from the caches of sequences prefilled alone (`decode_step(prompt, None)`)."""
        return list(caches)

    def join_cache(self, state: Any, caches: List[Any]) -> Any:
        """`state` (None: an empty batch) with rows of `caches` (as `batch_cache` takes them) after its own."""
        return self.batch_cache((self.split_cache(state) if state is not None else []) + list(caches))

    def decode_batch(self, tokens: List[int], state: Any) -> Tuple[torch.Tensor, Any]:
        """Logits [B, V] after appending tokens[b] to row b, and the new batch state (`state` may
        be updated in place: use only the one returned)."""
        rows = [self.decode_step(torch.tensor([[token]], device=self.device), cache) for token, cache in zip(tokens, state)]
        return torch.cat([logits for logits, _ in rows]), [cache for _, cache in rows]

    def select_rows(self, state: Any, rows: List[int]) -> Any:
        """The batch state of `rows` only (the others finished)."""
        return [state[i] for i in rows]

    def split_cache(self, state: Any) -> List[Any]:
        """Each row's own cache (what `batch_cache` takes): rows leave or join a running batch through
        it. Valid after `select_rows` too, not after `decode_batch` or `join_cache` of the same state."""
        return list(state)

    #: whether `slice_cache` works, so the service may keep finished sequences' caches as prefixes
    slices_caches = False

    def slice_cache(self, cache: Any, length: int, copy: bool = False) -> Any:
        """The cache of the first `length` tokens of a sequence's cache (a prefix for `decode_step`);
        `copy`: in memory of its own (a view would keep a whole batch's tensors alive)."""
        raise NotImplementedError(f"{type(self).__name__} cannot slice its KV cache")

    def cache_bytes(self, cache: Any) -> int:
        """Memory a sequence's cache holds."""
        raise NotImplementedError(f"{type(self).__name__} cannot size its KV cache")

    def trainable_parameters(self) -> List[torch.nn.Parameter]:
        return [p for p in self.module.parameters() if p.requires_grad]

    def parameter_count(self) -> int:
        return sum(p.numel() for p in self.module.parameters())

    def save(self, path: str) -> str:
        """Writes the weights to `path`; returns "full" or "lora"."""
        raise NotImplementedError

    def load_weights(self, path: str) -> None:
        """Loads what `save` wrote to `path` into this (identically built) policy."""
        raise NotImplementedError


def batch_logprobs(
    policy: Policy,
    input_ids: torch.Tensor,
    select: torch.Tensor,
    chunk_size: int = DEFAULT_LOGPROB_CHUNK,
    with_entropy: bool = False,
    attention_mask: Optional[torch.Tensor] = None,
) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
    """fp32 log p(input_ids[b, t] | input_ids[b, :t]) for every (b, t) where `select` is true,
    flattened row-major ([N]). Position 0 is never selectable (nothing predicts it)."""
    if attention_mask is None:
        attention_mask = torch.ones_like(input_ids)
    hidden = policy.hidden(input_ids, attention_mask)
    where = select[:, 1:].to(torch.bool)
    return target_logprobs(hidden[:, :-1][where], input_ids[:, 1:][where], policy.head, chunk_size, with_entropy)


class TinyPolicy(Policy):
    kind = "tiny"

    def __init__(self, config: Optional[TinyConfig] = None, name: str = "tiny", device: Optional[str] = None,
                 dtype: Optional[torch.dtype] = None) -> None:
        self.module = TinyByteLM(config)  # initialised in fp32 (the same weights in every dtype, rounded)
        if device:
            self.module.to(device)
        if dtype is not None:
            self.module.to(dtype=dtype)
        self.config = self.module.config
        self.tokenizer = ByteTokenizer()
        self.name = name
        self.max_model_len = self.config.max_seq_len

    def hidden(self, input_ids, attention_mask):
        # Right padding only: causal attention already keeps real positions from seeing pads.
        return self.module.hidden(input_ids)[0]

    def head(self, hidden):
        return self.module.lm_head(hidden)

    def decode_step(self, input_ids, cache):
        hidden, cache = self.module.hidden(input_ids, cache)
        return self.module.lm_head(hidden[:, -1]), cache

    def prefill(self, prompts):
        return tiny_batch.prefill(self.module, prompts, self.device)

    def batch_cache(self, caches):
        return tiny_batch.pad_caches(caches)

    def join_cache(self, state, caches):
        return tiny_batch.pad_caches(caches) if state is None else tiny_batch.join(state, caches)

    def decode_batch(self, tokens, state):
        return tiny_batch.decode_batch(self.module, torch.tensor(tokens, device=self.device), state)

    def select_rows(self, state, rows):
        return tiny_batch.select_rows(state, rows)

    def split_cache(self, state):
        return tiny_batch.split_rows(state)

    slices_caches = True

    def slice_cache(self, cache, length, copy=False):
        cut = [(k[..., :length, :], v[..., :length, :]) for k, v in cache]
        return [(k.clone(), v.clone()) for k, v in cut] if copy else cut

    def cache_bytes(self, cache):
        return sum(k.element_size() * k.numel() + v.element_size() * v.numel() for k, v in cache)

    def save(self, path: str) -> str:
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, TINY_CONFIG_FILE), "w") as out:
            json.dump(self.config.to_dict(), out, indent=1)
        torch_save(self.module.state_dict(), os.path.join(path, TINY_WEIGHTS_FILE))
        return "full"

    def load_weights(self, path: str) -> None:
        self.module.load_state_dict(torch.load(os.path.join(path, TINY_WEIGHTS_FILE), map_location=self.device, weights_only=True))

    @classmethod
    def load(cls, path: str, device: Optional[str] = None, dtype: Optional[torch.dtype] = None) -> "TinyPolicy":
        with open(os.path.join(path, TINY_CONFIG_FILE)) as handle:
            config = TinyConfig(**json.load(handle))
        policy = cls(config, name=os.path.basename(os.path.normpath(path)) or "tiny", device=device, dtype=dtype)
        policy.load_weights(path)
        return policy


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

    def load_weights(self, path: str) -> None:
        from .hf_weights import load_adapter_weights, load_full_weights

        (load_adapter_weights if self.lora else load_full_weights)(self.module, path)


def _logits_to_keep_arg(model: Any) -> Optional[str]:
    import inspect

    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    params = inspect.signature(base.forward).parameters
    for name in ("logits_to_keep", "num_logits_to_keep"):
        if name in params:
            return name
    return None


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
