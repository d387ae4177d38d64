"""FSDP's side of distributed.py: its units and rank 0's full copy, what a checkpoint holds of a
sharded run, and how a resume puts it back.

FSDP's full optimizer state (`FSDP.optim_state_dict`, gathered on rank 0) is keyed by parameter
name; one process and DDP key theirs by the parameter's position (`optimizer.state_dict()`). A
checkpoint keeps the form its run wrote; a resume converts it to the form it needs, so a checkpoint
of any mode resumes in any mode: the positions are those of `Policy.trainable_parameters()`, the
names those of the same parameters under the module FSDP wraps (`model.` + the model's own name).
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional

import torch


def trainable_names(policy: Any) -> List[str]:
    """The trained parameters' names as FSDP's optimizer state has them, in the optimizer's order."""
    return ["model." + name for name, p in policy.module.named_parameters() if p.requires_grad]


def by_name(optimizer: Dict[str, Any], names: List[str]) -> Dict[str, Any]:
    """A positional optimizer state (one process, DDP) keyed by name instead; a named one as it is."""
    groups = optimizer["param_groups"]
    if all(isinstance(i, str) for group in groups for i in group["params"]):
        return optimizer
    _check_count(groups, names)
    return {"state": {names[i]: value for i, value in optimizer["state"].items()},
            "param_groups": [dict(group, params=[names[i] for i in group["params"]]) for group in groups]}


def by_position(optimizer: Dict[str, Any], names: List[str]) -> Dict[str, Any]:
    """A named optimizer state (FSDP) keyed by position instead; a positional one as it is."""
    groups = optimizer["param_groups"]
    if all(isinstance(i, int) for group in groups for i in group["params"]):
        return optimizer
    _check_count(groups, names)
    index = {name: i for i, name in enumerate(names)}
    unknown = sorted({name for group in groups for name in group["params"]} - set(index))
    if unknown:
        raise ValueError(f"the optimizer state names parameters this model does not train: {', '.join(unknown[:3])}")
    return {"state": {index[name]: value for name, value in optimizer["state"].items()},
            "param_groups": [dict(group, params=[index[name] for name in group["params"]]) for group in groups]}


def _check_count(groups: List[Dict[str, Any]], names: List[str]) -> None:
    count = sum(len(group["params"]) for group in groups)
    if count != len(names):
        raise ValueError(f"the optimizer state holds {count} parameters, this trainer trains {len(names)}")


def fsdp_resume_dtype(mode: Optional[str], args: Any) -> Optional[torch.dtype]:
    """The dtype an FSDP run's checkpoint holds its weights in when it is not FSDP's fp32 (what the
    sampler serves: cast to --dtype); None otherwise. Such a checkpoint carries the fp32 masters
    too (`full_state`), which a resume loads instead of the cast weights."""
    if mode != "fsdp" or not args.resume:
        return None
    from .models import _dtype as compute_dtype  # --dtype's meaning (models.py imports checkpoint.py, which imports this)

    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    dtype = torch.float32 if args.model == "tiny" and args.dtype == "auto" else compute_dtype(args.dtype, device)
    return None if dtype == torch.float32 else dtype


def load_masters(policy: Any, masters: Optional[List[torch.Tensor]]) -> None:
    """A checkpoint's fp32 masters (one per trained parameter, in order) into an fp32 model, over
    its weights cast to a lower precision. None: the run kept none (`--master-weights none`), and
    its weights are all there is."""
    if masters is None:
        return
    params = policy.trainable_parameters()
    if len(masters) != len(params):
        raise ValueError(f"the checkpoint holds {len(masters)} master weights, this model trains {len(params)} parameters")
    with torch.no_grad():
        for index, (param, master) in enumerate(zip(params, masters)):
            if tuple(master.shape) != tuple(param.shape):
                raise ValueError(f"master weight {index} has shape {tuple(master.shape)} in the checkpoint, the parameter {tuple(param.shape)}")
            param.copy_(master)


def _fsdp():
    from torch.distributed.fsdp import FullOptimStateDictConfig, FullStateDictConfig, StateDictType
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

    return FSDP, StateDictType.FULL_STATE_DICT, FullStateDictConfig, FullOptimStateDictConfig


def full_state(trainer: Any) -> Dict[str, Any]:
    """The training state of an FSDP trainer as one process would write it, the optimizer gathered
    onto rank 0 (keyed by name; the other ranks get an empty one). A collective: every rank calls it."""
    FSDP, full, weights, optim = _fsdp()
    offload = trainer._offload
    with FSDP.state_dict_type(trainer.wrapped, full, weights(offload_to_cpu=offload, rank0_only=True), optim(offload_to_cpu=offload, rank0_only=True)):
        optimizer = FSDP.optim_state_dict(trainer.wrapped, trainer.optimizer)
        # The weight files hold what the sampler serves (cast to --dtype): the fp32 masters go here, as one process's do.
        masters = trainer.wrapped.state_dict() if trainer.compute not in (None, torch.float32) else None
    state = {"version": trainer.version, "steps": trainer.steps, "optimizer": optimizer, "sharded": "fsdp"}
    if masters is not None:
        listed = [masters[name] for name in trainable_names(trainer.policy)] if trainer.ranks.rank == 0 else None
        state["precision"] = {"master_weights": "fp32", "masters": listed, "grad_scaler": None}
    return state


def load_full_state(trainer: Any, state: Dict[str, Any]) -> None:
    """Every rank: its shard of a checkpoint's optimizer state (of any mode), then steps and version.
    The weights were loaded before sharding (checkpoint.load_resume_weights)."""
    FSDP, full, weights, optim = _fsdp()
    named = by_name(state["optimizer"], trainable_names(trainer.policy))
    with FSDP.state_dict_type(trainer.wrapped, full, weights(rank0_only=False), optim(rank0_only=False)):
        shard = FSDP.optim_state_dict_to_load(trainer.wrapped, trainer.optimizer, named)
    trainer.optimizer.load_state_dict(shard)
    for group in trainer.optimizer.param_groups:
        group.update(betas=trainer.config.betas, eps=trainer.config.adam_eps, weight_decay=trainer.config.weight_decay)
    trainer.steps, trainer.version = int(state["steps"]), int(state["version"])


def gather_full_weights(trainer: Any) -> None:
    """After a step: the full weights onto rank 0, cast into the plain copy it samples from and saves."""
    FSDP, full, weights, _ = _fsdp()
    with FSDP.state_dict_type(trainer.wrapped, full, weights(offload_to_cpu=trainer._offload, rank0_only=True)):
        state = trainer.wrapped.state_dict()
    if trainer.ranks.rank == 0:
        prefix = "model."
        with torch.no_grad():
            trainer.full.module.load_state_dict({k[len(prefix):]: v for k, v in state.items() if k.startswith(prefix)})


def layer_classes(module: torch.nn.Module) -> set:
    """transformers' decoder layer classes (`_no_split_modules`): one FSDP unit each."""
    base = module.get_base_model() if hasattr(module, "get_base_model") else module
    names = set(getattr(base, "_no_split_modules", None) or ())
    return {type(m) for m in module.modules() if type(m).__name__ in names}


def plain_copy(policy: Any, dtype: Optional[torch.dtype]) -> Any:
    """The full weights rank 0 samples from, in the compute dtype (cast from the fp32 masters)."""
    full = copy.copy(policy)
    # requires_grad kept as the trained model has it: a checkpoint's model identity counts the trained
    # parameters (nothing trains this copy: it is only loaded, under no_grad).
    full.module = copy.deepcopy(policy.module)
    if dtype is not None:
        full.module.to(dtype)
    return full
