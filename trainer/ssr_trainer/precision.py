"""Mixed precision: bf16 / fp16 compute, fp32 master weights and fp32 optimizer state.

At the learning rates RL uses (1e-6 … 3e-6) an AdamW update is below bf16's spacing for most
weights (bf16 keeps 8 significant bits: a weight of 0.05 moves only by steps of ~2e-4), so updating
bf16 weights in place rounds most updates to nothing. With `master_weights="fp32"` (the default)
every low-precision trainable parameter gets an fp32 copy: each micro-batch's gradients are added
into the copy's fp32 gradient, clipping and AdamW (moments in fp32) run on the copies, and the model's
weights are then cast from them. Everything that reads weights (the sampler's copy, `/weights/save`)
therefore reads weights cast from the masters. fp32 parameters (the fp32 model, LoRA adapters) are
their own masters: nothing is copied.

fp16 also needs loss scaling (its range, not only its precision, is small): torch's GradScaler,
whose overflow check skips a step with inf / NaN gradients and lowers the scale. `"none"` is the
old behaviour (AdamW on the model's own weights), kept to measure what the masters buy.

Memory per trained parameter (bytes), Adam moments counted: fp32 model 4 + 4 grad + 8 Adam = 16;
bf16 with fp32 masters 2 weight + 2 grad (transient, per micro-batch) + 4 master + 4 master grad +
8 Adam = 20; bf16 with `none` 2 + 2 + 4 (Adam in bf16) = 8, which does not learn at small lr.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import torch

MASTER_WEIGHTS = ("fp32", "none")
_LOW = (torch.bfloat16, torch.float16)


class Precision:
    """The tensors AdamW updates (`masters`) and how gradients and weights move between them and the model."""

    def __init__(self, params: Sequence[torch.nn.Parameter], master_weights: str = "fp32") -> None:
        if master_weights not in MASTER_WEIGHTS:
            raise ValueError(f"master weights must be one of {', '.join(MASTER_WEIGHTS)}, got {master_weights!r}")
        self.mode = master_weights
        self.params = list(params)
        fp16 = any(p.dtype == torch.float16 for p in self.params)
        if fp16 and master_weights == "none":
            raise ValueError("float16 training needs --master-weights fp32: fp16 gradients overflow without loss scaling, "
                             "and loss scaling needs fp32 gradients to unscale (use --dtype bfloat16 to train without masters)")
        copy = master_weights == "fp32"
        self.masters: List[torch.nn.Parameter] = [
            torch.nn.Parameter(p.detach().float().clone()) if copy and p.dtype in _LOW else p for p in self.params
        ]
        self.pairs = [(p, m) for p, m in zip(self.params, self.masters) if m is not p]
        self.scaler = _grad_scaler(self.params[0].device) if fp16 else None

    @property
    def enabled(self) -> bool:
        """Whether separate fp32 masters exist (a low-precision model with `fp32`)."""
        return bool(self.pairs)

    def describe(self) -> dict:
        """For /health: the trained parameters' dtype(s), whether fp32 masters are kept, the fp16 loss scale."""
        dtypes = ",".join(sorted({str(p.dtype).replace("torch.", "") for p in self.params}))
        return {"dtype": dtypes, "master_weights": "fp32" if self.enabled else "none", "loss_scale": self.loss_scale if self.scaler else None}

    @property
    def loss_scale(self) -> float:
        return float(self.scaler.get_scale()) if self.scaler is not None else 1.0

    def backward(self, loss: torch.Tensor) -> None:
        """Backward (loss-scaled for fp16), then the model's gradients added into the masters' fp32 ones,
        so micro-batches accumulate in fp32 and the low-precision gradients live one micro-batch at a time."""
        (self.scaler.scale(loss) if self.scaler is not None else loss).backward()
        for param, master in self.pairs:
            if param.grad is None:
                continue
            grad = param.grad.detach().float()
            master.grad = grad if master.grad is None else master.grad.add_(grad)
            param.grad = None

    def unscale(self, optimizer: torch.optim.Optimizer) -> None:
        """Divides the gradients by the loss scale (fp16) before they are clipped or measured."""
        if self.scaler is not None:
            self.scaler.unscale_(optimizer)

    def step(self, optimizer: torch.optim.Optimizer) -> bool:
        """One optimizer step on the masters, then the model's weights cast from them. False when
        the GradScaler skipped the step (inf / NaN gradients): then nothing changed."""
        if self.scaler is None:
            optimizer.step()
            updated = True
        else:
            before = self.scaler.get_scale()
            self.scaler.step(optimizer)
            self.scaler.update()
            updated = self.scaler.get_scale() >= before  # the scale drops exactly when the step was skipped
        if updated:
            self.publish()
        return updated

    @torch.no_grad()
    def publish(self) -> None:
        """The model's weights := the masters, rounded to the model's dtype."""
        for param, master in self.pairs:
            param.copy_(master)

    @torch.no_grad()
    def sync_from_model(self) -> None:
        """The masters := the model's weights (after weights were loaded into the model from outside)."""
        for param, master in self.pairs:
            master.copy_(param)

    def state_dict(self) -> Dict[str, Any]:
        return {"master_weights": self.mode, "masters": [m.detach().clone() for _, m in self.pairs] if self.pairs else None,
                "grad_scaler": self.scaler.state_dict() if self.scaler is not None else None}

    def load_state_dict(self, state: Optional[Dict[str, Any]]) -> None:
        """Restores saved masters (exact fp32 values, not the rounded model weights) and the loss scale.
        A resume with another `--master-weights` than the checkpoint's run is refused (ValueError naming
        both): silently dropping the fp32 masters would continue from rounded weights, and silently
        adding them would change what the run measures. Only a state without a precision section (an
        older checkpoint) starts the masters from the loaded weights."""
        masters = (state or {}).get("masters")
        if state is not None and (masters is not None) != self.enabled:
            raise ValueError(_changed_masters(masters is not None, self.params))
        if not self.pairs:
            return
        if masters is None:
            self.sync_from_model()
            return
        if len(masters) != len(self.pairs):
            raise ValueError(f"the checkpoint holds {len(masters)} master weights, this trainer keeps {len(self.pairs)}")
        for index, ((param, master), saved) in enumerate(zip(self.pairs, masters)):
            if tuple(saved.shape) != tuple(master.shape):
                raise ValueError(f"master weight {index} has shape {tuple(saved.shape)} in the checkpoint, the parameter {tuple(master.shape)}")
            with torch.no_grad():
                master.copy_(saved)
        self.publish()
        if self.scaler is not None and (state or {}).get("grad_scaler"):
            self.scaler.load_state_dict(state["grad_scaler"])


def _changed_masters(saved: bool, params: Sequence[torch.nn.Parameter]) -> str:
    """The refusal of a resume whose --master-weights differs from the checkpoint's run (see load_state_dict)."""
    dtype = ",".join(sorted({str(p.dtype).replace("torch.", "") for p in params}))
    was, now = ("fp32", "none") if saved else ("none", "fp32")
    effect = ("drop its exact fp32 masters and continue from the weights rounded to " + dtype if saved
              else "start fp32 masters from its " + dtype + " weights, a different run from the one saved")
    return (f"the checkpoint was trained with --master-weights {was}, this trainer runs with --master-weights {now} on {dtype} weights: "
            f"resuming would {effect}; resume with --master-weights {was}, or start from its weights with a fresh optimizer (--model DIR)")


def _grad_scaler(device: torch.device) -> Any:
    """torch's loss scaler for fp16 (dynamic scale, overflow check)."""
    amp_scaler = getattr(torch.amp, "GradScaler", None)  # torch >= 2.3: any device
    if amp_scaler is not None:
        return amp_scaler(device.type)
    if device.type == "cuda":
        return torch.cuda.amp.GradScaler()
    raise ValueError(f"float16 training on {device} needs loss scaling, and torch {torch.__version__} has a GradScaler for CUDA only: "
                     "use --dtype bfloat16 here (no loss scaling needed) or torch >= 2.3")
