"""One joint RL step over both roles' samples: filter, micro-batch, accumulate, clip, AdamW, version += 1.
Low-precision models train through fp32 master weights (precision.py)."""

from __future__ import annotations

import dataclasses
import math
import time
from collections import defaultdict
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import torch

from .advantages import loss_denominator
from .checkpoint import WeightsCopyError, load_weights_only
from .ranks_apart import RanksApartError, half_copied_message, refuse_if_apart
from .loss import LossConfig, policy_loss_terms
from .policy import Policy, batch_logprobs
from .precision import Precision
from .samples import ROLES, TrainingSample, parse_sample
from .step_metrics import grad_square_sum, mean, summary

EXCLUSION_REASONS = ("stale", "masked", "no_tokens", "no_loss_tokens", "too_long", "zero_advantage_group")


@dataclass
class TrainConfig:
    """Optimisation settings. Defaults are SSR's full fine-tuning ones (lr 3e-6 after 30 warm-up steps)."""

    lr: float = 3e-6
    #: optimizer steps of linear warm-up: step k (0-based) uses lr * min(1, (k+1)/warmup_steps)
    warmup_steps: int = 30
    weight_decay: float = 0.0
    betas: Tuple[float, float] = (0.9, 0.999)
    adam_eps: float = 1e-8
    #: grad-norm clipping threshold (None: no clipping; the norm is still reported)
    max_grad_norm: Optional[float] = 1.0
    #: padded tokens (rows x longest row) per micro-batch; a longer sample gets a micro-batch alone
    micro_batch_tokens: int = 16384
    #: at most this many samples per micro-batch (None: only the token budget limits)
    micro_batch_size: Optional[int] = None
    #: drop samples more than this many versions older than the weights being trained
    max_staleness: int = 8
    #: "tokens": the batch's trained-token count (token-level mean: GRPO, RLOO); "budget" (Dr.GRPO):
    #: generation_budget x the batch's sample count; or a fixed number (advantages.loss_denominator)
    loss_denominator: Any = "tokens"
    #: the most tokens one sample may generate (Dr.GRPO's constant; ssr sends the context limit)
    generation_budget: Optional[int] = None
    skip_zero_advantage_groups: bool = True
    #: also report each role's share of the gradient norm (keeps one gradient copy when both roles train)
    per_role_grad_norm: bool = True
    loss: LossConfig = field(default_factory=LossConfig)

    def validate(self) -> "TrainConfig":
        if self.lr < 0 or self.warmup_steps < 0 or self.max_staleness < 0 or self.micro_batch_tokens < 1:
            raise ValueError("lr, warmup_steps and max_staleness must be >= 0 and micro_batch_tokens >= 1")
        if self.micro_batch_size is not None and self.micro_batch_size < 1:
            raise ValueError(f"micro_batch_size must be >= 1, got {self.micro_batch_size}")
        loss_denominator(self.loss_denominator, [], self.generation_budget)  # raises on a bad mode or budget
        self.loss.validate()
        return self

    def with_overrides(self, overrides: Optional[Dict[str, Any]]) -> "TrainConfig":
        """A copy with fields replaced; loss fields may be given flat or under "loss"."""
        if not overrides:
            return self
        if not isinstance(overrides, dict):
            raise ValueError("config must be an object")
        own = {f.name for f in dataclasses.fields(self)} - {"loss"}
        loss_names = LossConfig.field_names()
        top, loss = {}, {}
        for key, value in overrides.items():
            if key == "loss" and isinstance(value, dict):
                loss.update(value)
            elif key in own:
                top[key] = tuple(value) if key == "betas" else value
            elif key in loss_names:
                loss[key] = value
            else:
                raise ValueError(f"unknown config field {key!r}: expected one of {', '.join(sorted(own | loss_names))}")
        unknown = set(loss) - loss_names
        if unknown:
            raise ValueError(f"unknown loss field(s) {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **top, loss=dataclasses.replace(self.loss, **loss)).validate()

    def lr_at(self, step: int) -> float:
        if self.warmup_steps <= 0:
            return self.lr
        return self.lr * min(1.0, (step + 1) / self.warmup_steps)


@dataclass
class Selection:
    kept: List[TrainingSample]
    excluded: Dict[str, Dict[str, int]]  # reason -> role -> count
    #: usable samples left out for carrying no signal (Dr.GRPO still counts them in its denominator)
    zero_advantage: List[TrainingSample] = field(default_factory=list)


def select_samples(samples: Sequence[TrainingSample], version: int, config: TrainConfig, max_len: Optional[int]) -> Selection:
    """The samples that train this step, and why the others do not.

    A sample from a version newer than the weights is an error (the caller and the trainer disagree
    on the version); zero-advantage groups are judged on the samples that survive the other filters.
    """
    excluded = {reason: {role: 0 for role in ROLES} for reason in EXCLUSION_REASONS}
    survivors = []
    for sample in samples:
        if sample.policy_version > version:
            raise ValueError(f"sample {sample.id} comes from policy version {sample.policy_version}, newer than the trainer's {version}")
        reason = None
        if version - sample.policy_version > config.max_staleness:
            reason = "stale"
        elif sample.masked:
            reason = "masked"
        elif sample.tokens is None:
            reason = "no_tokens"
        elif sample.tokens.loss_tokens == 0:
            reason = "no_loss_tokens"
        elif max_len is not None and len(sample.tokens.ids) > max_len:
            reason = "too_long"
        if reason:
            excluded[reason][sample.role] += 1
        else:
            survivors.append(sample)
    if not config.skip_zero_advantage_groups:
        return Selection(survivors, excluded)
    signal = defaultdict(bool)
    for sample in survivors:
        signal[(sample.role, sample.group_id)] |= sample.advantage != 0
    kept, silent = [], []
    for sample in survivors:
        if signal[(sample.role, sample.group_id)]:
            kept.append(sample)
        else:
            silent.append(sample)
            excluded["zero_advantage_group"][sample.role] += 1
    return Selection(kept, excluded, silent)


def micro_batches(samples: Sequence[TrainingSample], config: TrainConfig) -> List[List[TrainingSample]]:
    """Role by role (so each role's gradient share can be measured), similar lengths together."""
    batches: List[List[TrainingSample]] = []
    for role in ROLES:
        ordered = sorted((s for s in samples if s.role == role), key=lambda s: len(s.tokens.ids))
        current: List[TrainingSample] = []
        for sample in ordered:
            longest = len(sample.tokens.ids)  # ascending order: the newcomer is the longest
            full = config.micro_batch_size is not None and len(current) >= config.micro_batch_size
            if current and (full or (len(current) + 1) * longest > config.micro_batch_tokens):
                batches.append(current)
                current = []
            current.append(sample)
        if current:
            batches.append(current)
    return batches


def collate(batch: Sequence[TrainingSample], pad_id: int, device: torch.device):
    """Right-padded ids, the trained positions, and per-trained-token sampler logprobs and advantages."""
    width = max(len(s.tokens.ids) for s in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    attention = torch.zeros((len(batch), width), dtype=torch.long)
    select = torch.zeros((len(batch), width), dtype=torch.bool)
    sampler, advantages = [], []
    for row, sample in enumerate(batch):
        n = len(sample.tokens.ids)
        ids[row, :n] = torch.tensor(sample.tokens.ids, dtype=torch.long)
        attention[row, :n] = 1
        select[row, :n] = torch.tensor(sample.tokens.loss_mask, dtype=torch.bool)
        sampler += [lp for m, lp in zip(sample.tokens.loss_mask, sample.tokens.logprobs) if m]
        advantages += [sample.advantage] * sample.tokens.loss_tokens
    return (ids.to(device), attention.to(device), select.to(device),
            torch.tensor(sampler, dtype=torch.float32, device=device), torch.tensor(advantages, dtype=torch.float32, device=device))


def processed_mask(batch: Sequence[TrainingSample], device: torch.device) -> torch.Tensor:
    """Per trained token (collate's order): whether its sampler logprobs are processed ones (TIS applies)."""
    flags = [flag for s in batch for flag in [s.sampling is not None and s.sampling.processed] * s.tokens.loss_tokens]
    return torch.tensor(flags, dtype=torch.bool, device=device)


class Trainer:
    """Owns the optimizer and the weights version of one policy."""

    def __init__(self, policy: Policy, config: Optional[TrainConfig] = None, version: int = 0, master_weights: str = "fp32") -> None:
        self.policy = policy
        self.config = (config or TrainConfig()).validate()
        self.version = version
        #: optimizer steps that updated the weights (the warm-up position)
        self.steps = 0
        trainable = policy.trainable_parameters()
        if not trainable:
            raise ValueError("the policy has no trainable parameters")
        # A bf16 / fp16 model trains through fp32 masters (precision.py): they hold the gradients
        # and are what AdamW updates; for an fp32 model they are the parameters themselves.
        self.precision = Precision(trainable, master_weights)
        self.params = self.precision.masters
        c = self.config
        self.optimizer = torch.optim.AdamW(self.params, lr=c.lr, betas=c.betas, eps=c.adam_eps, weight_decay=c.weight_decay)
        # No dropout in RL: the trainer's logprobs must match the sampler's teacher-forced ones.
        _disable_dropout(policy.module)
        # transformers only checkpoints activations in train mode; otherwise eval mode throughout.
        self.train_mode = bool(getattr(policy.module, "is_gradient_checkpointing", False))
        policy.module.train(self.train_mode)
        #: set when a weight load's copy stopped part way (ranks_apart.py): every later step and load is refused
        self.ranks_apart: Optional[str] = None

    def step(self, samples: Iterable[Any], overrides: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """One optimizer step on `samples` (TrainingSample or wire dicts). Always bumps the version,
        also when nothing updates the weights: every sample filtered out, a gradient of exactly zero
        (no advantage left), or an fp16 step the loss scaler skipped. Only steps that updated count
        as steps (`steps`, the warm-up position): a step with no signal does not use up warm-up."""
        refuse_if_apart(self)
        started = time.perf_counter()
        config = self.config.with_overrides(overrides)
        parsed = [s if isinstance(s, TrainingSample) else parse_sample(s, f"sample {i}") for i, s in enumerate(samples)]
        metrics = self.accumulate(parsed, config)
        self.precision.unscale(self.optimizer)
        grad_norm = self._clip(config)
        lr = config.lr_at(self.steps)
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        updated = False
        # A zero gradient would still move the weights through Adam's momentum: that is no update from these samples.
        if metrics["samples"]["trained"] > 0 and grad_norm != 0.0:
            updated = self.precision.step(self.optimizer)
        self.optimizer.zero_grad(set_to_none=True)
        if updated:
            self.steps += 1
        self.version += 1
        seconds = time.perf_counter() - started
        metrics.update({"lr": lr, "grad_norm": grad_norm, "step": self.steps, "updated": updated, "version": self.version, "seconds": seconds})
        metrics["tokens_per_second"] = metrics["tokens"]["sequence"] / seconds if seconds > 0 else 0.0
        return metrics

    def state_dict(self) -> Dict[str, Any]:
        """What a resume needs besides the weights: AdamW's state (moments, its step), the step
        count (the warm-up position) and the version."""
        return {"version": self.version, "steps": self.steps, "optimizer": self.optimizer.state_dict(), "precision": self.precision.state_dict()}

    def load_state_dict(self, state: Dict[str, Any]) -> None:
        """Restores `state_dict()`'s output. AdamW's hyper-parameters stay this trainer's config's
        (the lr is set every step anyway); the moments must fit the parameters, shape for shape."""
        saved = state["optimizer"]
        indices = [i for group in saved["param_groups"] for i in group["params"]]
        if len(indices) != len(self.params):
            raise ValueError(f"the optimizer state holds {len(indices)} parameters, this trainer trains {len(self.params)}")
        for position, index in enumerate(indices):
            for name, value in saved["state"].get(index, {}).items():
                shape = tuple(self.params[position].shape)
                if torch.is_tensor(value) and value.dim() > 0 and tuple(value.shape) != shape:
                    raise ValueError(f"the optimizer state's {name} of parameter {position} has shape {tuple(value.shape)}, the parameter {shape}")
        self.optimizer.load_state_dict(saved)
        for group in self.optimizer.param_groups:
            group.update(betas=self.config.betas, eps=self.config.adam_eps, weight_decay=self.config.weight_decay)
        self.precision.load_state_dict(state.get("precision"))
        self.steps, self.version = int(state["steps"]), int(state["version"])

    def load_weights(self, path: str) -> Dict[str, Any]:
        """/update_weights_from_disk: a checkpoint's weights (checked), trained from and served at its
        version; the optimizer keeps its state (distributed.py: on every rank)."""
        refuse_if_apart(self)
        try:
            manifest = load_weights_only(path, self.policy)
        except WeightsCopyError as error:
            # Part of the model is new: training on would step from weights no checkpoint holds.
            self.ranks_apart = half_copied_message(path, error.__cause__ or error, self.version)
            raise RanksApartError(self.ranks_apart) from error
        self.version = manifest["version"]
        self.precision.sync_from_model()  # a later step trains from the loaded weights
        return manifest

    def accumulate(self, samples: Sequence[TrainingSample], config: Optional[TrainConfig] = None) -> Dict[str, Any]:
        """Forward + backward over all micro-batches; gradients are left in `.grad` (not stepped).
        The loss of every micro-batch is divided by the whole batch's denominator, so the summed
        gradient is the gradient of the one big batch."""
        config = config or self.config
        self.policy.module.train(self.train_mode)
        selection = select_samples(samples, self.version, config, self.policy.max_model_len)
        kept = selection.kept
        # Dr.GRPO's batch is every usable sample, zero-advantage groups included (they add 0 to the sum).
        batch = kept if config.loss_denominator != "budget" else [*kept, *selection.zero_advantage]
        denominator = loss_denominator(config.loss_denominator, [s.tokens.loss_tokens for s in batch], config.generation_budget) if kept else 0.0
        sums = {role: defaultdict(float) for role in ROLES}
        role_norms: Dict[str, float] = {}
        snapshot: Optional[List[Optional[torch.Tensor]]] = None
        both_roles = len({s.role for s in kept}) == 2
        self.optimizer.zero_grad(set_to_none=True)
        previous_role = None
        for batch, scale, sync in self._micro_batch_plan(micro_batches(kept, config)):
            role = batch[0].role
            if previous_role is not None and role != previous_role and config.per_role_grad_norm and both_roles:
                role_norms[previous_role] = self._role_grad_norm(None)
                snapshot = [None if p.grad is None else p.grad.detach().clone() for p in self.params]
            previous_role = role
            ids, attention, select, sampler, advantages = collate(batch, self.policy.tokenizer.pad_id, self.policy.device)
            processed = processed_mask(batch, self.policy.device)
            with_entropy = bool(config.loss.entropy_coef)
            with sync:
                logprobs, entropy = self._logprobs(ids, select, config.loss.logprob_chunk, with_entropy, attention)
                per_token, diagnostics = policy_loss_terms(logprobs, sampler, advantages, config.loss, entropy, processed)
                self.precision.backward(per_token.sum() * scale / denominator)
            if not scale:
                continue  # a stand-in batch (distributed.py): no loss, no metrics
            bucket = sums[role]
            bucket["loss"] += float(per_token.detach().sum()) / denominator
            bucket["loss_tokens"] += per_token.numel()
            bucket["sequence_tokens"] += int(attention.sum())
            for name, value in diagnostics.items():
                bucket[name] += float(value.sum())
        if previous_role is not None and config.per_role_grad_norm:
            role_norms[previous_role] = self._role_grad_norm(snapshot)
        return self._metrics(samples, selection, sums, role_norms, denominator)

    # Hooks for distributed.py (one process here): which micro-batches this process runs, each
    # with its loss scale and the context its forward + backward run in, and the forward itself.
    def _micro_batch_plan(self, batches: List[List[TrainingSample]]) -> Iterable[Tuple[List[TrainingSample], float, Any]]:
        return ((batch, 1.0, nullcontext()) for batch in batches)

    def _role_grad_norm(self, minus: Optional[List[Optional[torch.Tensor]]]) -> float:
        """The norm of the gradient accumulated (since `minus`): one role's share (distributed.py: reduced first)."""
        return math.sqrt(grad_square_sum(self.params, minus)) / self.precision.loss_scale

    def _logprobs(self, ids, select, chunk, with_entropy, attention):
        return batch_logprobs(self.policy, ids, select, chunk, with_entropy, attention)

    def published_policy(self) -> Policy:
        """The full trained weights, as sampling and saving read them (distributed.py: gathered under FSDP)."""
        return self.policy

    def _clip(self, config: TrainConfig) -> float:
        with_grad = [p for p in self.params if p.grad is not None]
        if not with_grad:
            return 0.0
        limit = config.max_grad_norm if config.max_grad_norm is not None else math.inf
        return float(torch.nn.utils.clip_grad_norm_(with_grad, limit))

    def _metrics(self, samples, selection: Selection, sums, role_norms, denominator) -> Dict[str, Any]:
        roles: Dict[str, Any] = {}
        for role in ROLES:
            received = [s for s in samples if s.role == role]
            trained = [s for s in selection.kept if s.role == role]
            roles[role] = summary(sums[role])
            roles[role].update({
                "samples": {"received": len(received), "trained": len(trained)},
                "mean_advantage": mean([s.advantage for s in trained]),
                "mean_reward": mean([s.reward for s in received]),
                "grad_norm": role_norms.get(role, 0.0),
            })
        total = defaultdict(float)
        for role in ROLES:
            for key, value in sums[role].items():
                total[key] += value
        out = summary(total)
        out.update({
            "samples": {"received": len(samples), "trained": len(selection.kept)},
            "excluded": {reason: sum(by_role.values()) for reason, by_role in selection.excluded.items()},
            "excluded_by_role": selection.excluded,
            "loss_denominator": denominator,
            "roles": roles,
        })
        return out


def _disable_dropout(module: torch.nn.Module) -> None:
    """Zeroes dropout modules and the float dropout rates attention layers copy from their config."""
    for child in module.modules():
        if isinstance(child, torch.nn.Dropout):
            child.p = 0.0
        for name, value in list(vars(child).items()):
            if "dropout" in name and isinstance(value, float):
                setattr(child, name, 0.0)
    config = getattr(module, "config", None)
    for name, value in list(vars(config).items()) if config is not None else []:
        if ("dropout" in name or name.endswith("_pdrop")) and isinstance(value, float):
            setattr(config, name, 0.0)
