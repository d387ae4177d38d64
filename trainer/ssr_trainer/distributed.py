"""Training past one device through torch.distributed: DDP or FSDP, launched by torchrun.

    torchrun --nproc_per_node 8 -m ssr_trainer.service --model Qwen/Qwen3-8B --parallel fsdp --port 8000

Every process builds the same policy and a `DistributedTrainer`. Rank 0 serves HTTP (sampling,
/train/step, /weights/save); the other ranks wait in `follow()` for its commands. A step: rank 0
posts the request's samples and config to all ranks; each selects the same samples, fixes the same
loss denominator and the same micro-batches and computes the loss of its share (micro-batch i on
rank i mod N, every rank running as many as the busiest one: the extra ones weigh 0, because DDP
and FSDP reduce once per backward on every rank). DDP all-reduces / FSDP reduce-scatters the
gradients as a mean, so each rank scales its loss by N: the sum is then the one-process gradient.
Each rank clips (FSDP: over the shards) and steps its own optimizer (FSDP: its shard).

Rank 0 samples from full weights: DDP's are the trained ones; under FSDP the step ends by
gathering the full weights onto rank 0 (`FullStateDictConfig(rank0_only)`), into the plain copy
that sampling and `/weights/save` read.

Precision under FSDP: the sharded parameters, the gradients reduced and the optimizer state are
fp32 (load the model in fp32); `MixedPrecision(param_dtype=bf16)` casts the gathered parameters
to bf16 for the forward and backward only. That is fp32 master weights with bf16 compute, the rule
of docs/rl-contract.md, done by FSDP itself.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections import defaultdict
from contextlib import nullcontext
from datetime import timedelta
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import torch
import torch.distributed as dist

from .checkpoint import CheckpointError
from .policy import Policy, batch_logprobs
from .models import _dtype as compute_dtype  # --dtype's meaning, shared with load_policy
from .fsdp_state import full_state, gather_full_weights, layer_classes, load_full_state, plain_copy
from .rank_weights import load_on_every_rank
from .ranks_apart import RanksApartError, refuse_if_apart
from .step_metrics import grad_square_sum
from .train import TrainConfig, Trainer

PARALLEL_MODES = ("auto", "fsdp", "ddp")
#: how long a follower may wait for rank 0's next command (between steps a run may idle for long)
COMMAND_TIMEOUT = timedelta(days=7)


@dataclasses.dataclass
class Ranks:
    """This process's place in the job torchrun started."""

    rank: int
    world: int
    local_rank: int
    device: str
    #: a gloo group with a long timeout, for rank 0's commands and the metrics (CPU objects)
    commands: Any

    def post(self, command: Tuple[Any, ...]) -> None:
        """Rank 0: hands `command` to every other rank (they wait for it in `receive`)."""
        dist.broadcast_object_list([command], src=0, group=self.commands)

    def receive(self) -> Tuple[Any, ...]:
        box: List[Any] = [None]
        dist.broadcast_object_list(box, src=0, group=self.commands)
        return box[0]

    def gather(self, value: Any) -> List[Any]:
        out: List[Any] = [None] * self.world
        dist.all_gather_object(out, value, group=self.commands)
        return out


def world_size() -> int:
    """How many processes torchrun started (1 without torchrun)."""
    return int(os.environ.get("WORLD_SIZE", "1"))


def _on_cuda(device: Optional[str]) -> bool:
    return device.startswith("cuda") if device else torch.cuda.is_available()


def init_from_env(device: Optional[str] = None) -> Optional[Ranks]:
    """Joins the job torchrun started (WORLD_SIZE, RANK, LOCAL_RANK, MASTER_ADDR/PORT in the
    environment); None when this is a single process. NCCL on CUDA (one GPU per local rank), gloo
    on CPU."""
    world = world_size()
    if world < 2:
        return None
    if not dist.is_available():
        raise RuntimeError("WORLD_SIZE > 1 but this torch has no torch.distributed")
    rank, local = int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", "0"))
    cuda = _on_cuda(device)
    if cuda:
        torch.cuda.set_device(local)
    dist.init_process_group("nccl" if cuda else "gloo")
    commands = dist.new_group(backend="gloo", timeout=COMMAND_TIMEOUT)
    return Ranks(rank, world, local, f"cuda:{local}" if cuda else "cpu", commands)


def fsdp_unavailable() -> Optional[str]:
    """Why FSDP cannot run with this torch (None: it can)."""
    try:
        from torch.distributed.fsdp import FullyShardedDataParallel  # noqa: F401
    except Exception as error:  # Debian's torch 1.13 fails to import it on Python 3.11 (a dataclass default)
        return f"torch {torch.__version__} cannot import torch.distributed.fsdp ({type(error).__name__}: {error})"
    if not torch.cuda.is_available() and tuple(int(x) for x in torch.__version__.split(".")[:2]) < (2, 1):
        return f"torch {torch.__version__}'s FSDP needs CUDA (CPU FSDP came with torch 2.1)"
    return None


def resolve_mode(mode: str, device: Optional[str] = None) -> str:
    """`--parallel` for `--device`: `auto` is FSDP on CUDA (sharded: what a 7B+ model needs), DDP on
    CPU. FSDP where this torch cannot run it stops here, with the reason."""
    if mode == "auto":
        return "fsdp" if _on_cuda(device) else "ddp"
    if mode == "fsdp":
        reason = fsdp_unavailable()
        if reason:
            raise SystemExit(f"ssr-trainer: --parallel fsdp: {reason}; use --parallel ddp (or torch >= 2.1)")
    return mode


class _Logprobs(torch.nn.Module):
    """The trainer's pass over one micro-batch as one module's forward, so that DDP / FSDP run it
    (they act in `forward`: DDP prepares its gradient reduction, FSDP gathers the parameters)."""

    def __init__(self, policy: Policy) -> None:
        super().__init__()
        self.model = policy.module
        self.policy = policy

    def forward(self, ids, select, attention, chunk: int, with_entropy: bool):
        return batch_logprobs(self.policy, ids, select, chunk, with_entropy, attention)


def _wrap(policy: Policy, mode: str, ranks: Ranks, compute_dtype: Optional[torch.dtype]) -> torch.nn.Module:
    module = _Logprobs(policy)
    cuda = ranks.device.startswith("cuda")
    if mode == "ddp":
        from torch.nn.parallel import DistributedDataParallel

        if not cuda and int(torch.__version__.split(".")[0]) < 2 and any(p.dtype == torch.bfloat16 for p in module.parameters()):
            raise ValueError(f"gloo in torch {torch.__version__} cannot reduce bfloat16 tensors: train in float32 on CPU, or use torch >= 2")

        # Parameters are broadcast from rank 0 here, so every replica starts from the same weights.
        return DistributedDataParallel(module, device_ids=[ranks.local_rank] if cuda else None)
    from torch.distributed.fsdp import FullyShardedDataParallel, MixedPrecision

    wrap_policy = None
    layers = layer_classes(policy.module)
    if layers:
        from torch.distributed.fsdp.wrap import ModuleWrapPolicy

        wrap_policy = ModuleWrapPolicy(layers)
    mixed = None
    if compute_dtype is not None and compute_dtype != torch.float32:
        mixed = MixedPrecision(param_dtype=compute_dtype, reduce_dtype=torch.float32)
    # Every rank starts from rank 0's weights, as DDP does (a LoRA adapter's init is random per process). Not FSDP's
    # sync_module_states: it refuses CPU parameters, and this one path runs on CPU in CI.
    with torch.no_grad():
        for tensor in module.state_dict().values():
            dist.broadcast(tensor, src=0)
    return FullyShardedDataParallel(module, auto_wrap_policy=wrap_policy, mixed_precision=mixed, use_orig_params=True,
                                    device_id=torch.device(ranks.device) if cuda else torch.device("cpu"))


class DistributedTrainer(Trainer):
    """A `Trainer` whose step runs on every rank of a torchrun job (see the module's docstring).
    On rank 0 `step`, `state_dict` and `stop` first tell the other ranks to do the same."""

    def __init__(self, policy: Policy, config: Optional[TrainConfig], version: int, ranks: Ranks, mode: str,
                 compute_dtype: Optional[torch.dtype] = None, master_weights: str = "fp32") -> None:
        self.ranks, self.mode, self.compute = ranks, mode, compute_dtype
        self.sharded = mode == "fsdp"
        # Rank 0 samples from (and saves) full weights: under FSDP a plain copy, taken before sharding.
        self.full = plain_copy(policy, compute_dtype) if self.sharded and ranks.rank == 0 else policy
        self._counts: List[int] = [0] * ranks.world
        # Gathered full weights go to host memory on a GPU (on CPU, FSDP's offload copy crashes torch 2.13).
        self._offload = ranks.device.startswith("cuda")
        # The tensors a weight load must match (rank_weights.py), read off the plain model before wrapping.
        self.layout = policy.weights_layout()
        #: set when a weight load's copy failed on some rank (ranks_apart.py): every step, save and load is refused
        self.ranks_apart: Optional[str] = None
        self.wrapped = _wrap(policy, mode, ranks, compute_dtype)
        # Under FSDP the model is fp32 (the sharded masters), so precision.py keeps no copies of its own.
        super().__init__(policy, config, version, master_weights)

    @property
    def world_size(self) -> int:
        return self.ranks.world

    def published_policy(self) -> Policy:
        return self.full

    def step(self, samples, overrides=None):
        refuse_if_apart(self)
        if self.ranks.rank == 0:
            self.ranks.post(("step", list(samples), overrides))
        metrics = super().step(samples, overrides)
        if self.sharded:
            gather_full_weights(self)
        metrics["parallel"] = {"mode": self.mode, "world_size": self.ranks.world, "micro_batches": self._counts}
        return metrics

    def _micro_batch_plan(self, batches: Sequence[Any]) -> Iterator[Tuple[Any, float, Any]]:
        world, rank = self.ranks.world, self.ranks.rank
        # Role by role (micro_batches' order), each role's micro-batches dealt round-robin and reduced by
        # the role's last backward: each role's reduced share can then be measured (_role_grad_norm).
        segments: List[List[Any]] = []
        for batch in batches:
            if segments and segments[-1][0][0].role == batch[0].role:
                segments[-1].append(batch)
            else:
                segments.append([batch])
        self._counts = [sum(len(segment[r::world]) for segment in segments) for r in range(world)]
        for segment in segments:
            mine, rounds = segment[rank::world], -(-len(segment) // world)  # every rank runs the busiest one's count
            for i in range(rounds):
                # DDP reduces on a role's last backward only (no_sync before it), unless precision.py moves each
                # backward's gradients into fp32 masters (then each must be reduced first); FSDP reduce-scatters
                # every one (no_sync would keep unsharded gradients: full memory).
                deferred = i < rounds - 1 and not self.sharded and not self.precision.enabled
                context = self.wrapped.no_sync() if deferred else nullcontext()
                # A rank short of one runs a stand-in of the same role, weighted 0, so that it joins the reduction.
                yield (mine[i], float(world), context) if i < len(mine) else (segment[0], 0.0, context)

    def _role_grad_norm(self, minus):
        if not self.sharded:  # DDP: every rank holds the reduced gradient
            return super()._role_grad_norm(minus)
        # FSDP: each rank holds a shard of the reduced gradient; their squares add up.
        return math.sqrt(sum(self.ranks.gather(grad_square_sum(self.params, minus)))) / self.precision.loss_scale

    def _logprobs(self, ids, select, chunk, with_entropy, attention):
        return self.wrapped(ids, select, attention, chunk, with_entropy)

    def _clip(self, config: TrainConfig) -> float:
        if not self.sharded:
            return super()._clip(config)
        limit = config.max_grad_norm if config.max_grad_norm is not None else float("inf")
        return float(self.wrapped.clip_grad_norm_(limit))

    def _metrics(self, samples, selection, sums, role_norms, denominator):
        merged: Dict[str, Any] = {}
        for theirs in self.ranks.gather({role: dict(values) for role, values in sums.items()}):
            for role, values in theirs.items():
                bucket = merged.setdefault(role, defaultdict(float))
                for key, value in values.items():
                    bucket[key] += value
        return super()._metrics(samples, selection, merged, role_norms, denominator)

    def state_dict(self) -> Dict[str, Any]:
        refuse_if_apart(self)
        if not self.sharded:
            return super().state_dict()
        if self.ranks.rank == 0:
            self.ranks.post(("state_dict",))
        return full_state(self)

    def load_state_dict(self, state: Dict[str, Any]) -> None:
        """FSDP: this rank's shard of a checkpoint's optimizer state (the weights were loaded before
        sharding); DDP: the whole of it, as one process."""
        if self.sharded:
            return load_full_state(self, state)
        super().load_state_dict(state)

    def load_weights(self, path: str) -> Dict[str, Any]:
        refuse_if_apart(self)
        if self.ranks.rank == 0:
            self.ranks.post(("load_weights", path))
        return load_on_every_rank(self, path)

    def stop(self) -> None:
        """Rank 0: lets the other ranks leave `follow()`."""
        if self.ranks.rank == 0:
            self.ranks.post(("stop",))


def follow(trainer: DistributedTrainer) -> None:
    """Ranks other than 0: run rank 0's commands until it stops. A step that fails on rank 0 fails
    here the same way (same samples, same checks, before any collective), and the loop goes on."""
    while True:
        command = trainer.ranks.receive()
        if command[0] == "stop":
            return
        if command[0] == "step":
            try:
                trainer.step(command[1], command[2])
            except ValueError:
                pass  # rank 0 answers the request with the error
        elif command[0] == "state_dict":
            trainer.state_dict()
        elif command[0] == "load_weights":
            try:
                trainer.load_weights(command[1])
            except (CheckpointError, RanksApartError):
                pass  # rank 0 answers the request with the error (and, ranks apart, refuses every later one)
