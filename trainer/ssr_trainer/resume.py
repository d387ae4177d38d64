"""Resuming a trainer from a `/weights/save` checkpoint (`--resume`): the weights, optimizer state,
steps, version and RNG, in two halves around building the trainer, because FSDP shards the
weights it is given (distributed.py): `load_resume_weights` before, `resume_training_state` after.
"""

from __future__ import annotations

import os
import random
from typing import Any, Dict, Tuple

import torch

from .checkpoint import FORMAT, TRAINING_STATE_FILE, CheckpointError, is_resumable, load_checked_weights, verified_manifest
from .fsdp_state import by_position, load_masters, trainable_names

# torch 1.13's weights-only unpickler rejects plain floats (the optimizer's lr, betas): there the
# training state, a file this trainer wrote itself, is read with the full unpickler.
_WEIGHTS_ONLY_READS_FLOATS = int(torch.__version__.split(".")[0]) >= 2


def load_checkpoint(path: str, policy: Any, trainer: Any) -> Dict[str, Any]:
    """Resumes `trainer` (built on `policy` as the checkpoint's run built it) from `path`: weights,
    optimizer, steps, version and RNG. Returns the manifest."""
    manifest, state = load_resume_weights(path, policy)
    resume_training_state(path, state, trainer)
    return manifest


def load_resume_weights(path: str, policy: Any, saved_dtype: Any = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """A resume's first half, before the trainer is built on `policy` (FSDP shards the weights it is
    given): checks the checkpoint, reads its training state and loads its weights into `policy`.
    `saved_dtype`: FSDP's fp32 model resuming a checkpoint whose weights are in that compute dtype;
    the weights then come from the checkpoint's fp32 masters (fsdp_state.fsdp_resume_dtype)."""
    manifest = verified_manifest(path, policy, saved_dtype=saved_dtype)
    if not is_resumable(manifest):
        raise CheckpointError(f"{path} has no {TRAINING_STATE_FILE} in its manifest: it holds no optimizer state to resume from "
                              "(a sampler sync's weights-only export); resume from a checkpoint `ssr selfplay --save-every` wrote")
    state = _load_training_state(path, manifest)
    load_checked_weights(path, policy)
    if saved_dtype is not None:
        try:
            load_masters(policy, (state.get("precision") or {}).get("masters"))
        except ValueError as error:
            raise CheckpointError(f"{os.path.join(path, TRAINING_STATE_FILE)} does not fit this model: {error}") from error
    return manifest, state


def resume_training_state(path: str, state: Dict[str, Any], trainer: Any) -> None:
    """A resume's second half: the optimizer state (keyed as this trainer keys it, whichever mode
    wrote it: fsdp_state.py), steps, version and RNG."""
    try:
        if not getattr(trainer, "sharded", False):
            state = dict(state, optimizer=by_position(state["optimizer"], trainable_names(trainer.policy)))
        trainer.load_state_dict(state)
    except (KeyError, ValueError, RuntimeError) as error:
        raise CheckpointError(f"{os.path.join(path, TRAINING_STATE_FILE)} does not fit this model: {error}") from error
    _restore_rng(state.get("rng") or {})


def _load_training_state(path: str, manifest: Dict[str, Any]) -> Dict[str, Any]:
    full = os.path.join(path, TRAINING_STATE_FILE)
    try:
        state = torch.load(full, map_location="cpu", weights_only=_WEIGHTS_ONLY_READS_FLOATS)
    except Exception as error:  # noqa: BLE001 (torch raises many kinds for a bad file)
        raise CheckpointError(f"{full} cannot be read: {error}") from error
    if not isinstance(state, dict) or state.get("format") != FORMAT or "optimizer" not in state:
        raise CheckpointError(f"{full} is not an ssr-trainer training state")
    for key in ("version", "steps"):
        if state.get(key) != manifest[key]:
            raise CheckpointError(f"{full} is at {key} {state.get(key)}, the manifest says {manifest[key]}")
    return state


def _restore_rng(rng: Dict[str, Any]) -> None:
    if rng.get("torch") is not None:
        torch.set_rng_state(rng["torch"])
    if rng.get("python") is not None:
        random.setstate(rng["python"])
    if rng.get("cuda") and torch.cuda.is_available():
        for index, device_state in enumerate(rng["cuda"][: torch.cuda.device_count()]):
            torch.cuda.set_rng_state(device_state, index)
