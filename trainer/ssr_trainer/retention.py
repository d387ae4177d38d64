"""Retention: a trainer that saves at every sync would fill its disk (an 8B model's bf16 weights
and AdamW moments are ~48 GB a save); `/weights/save` with `keep` deletes all but the newest `keep`
checkpoints of the kind it just wrote, in the folder it wrote it to."""

from __future__ import annotations

import os
import shutil
import uuid
from typing import Any, List

from .checkpoint import CheckpointError, is_resumable, read_manifest


def prune_checkpoints(folder: str, keep: int, resumable: bool) -> List[str]:
    """Deletes the checkpoints `v<N>` of one kind (resumable or weights-only) in `folder` but the
    `keep` newest by version; returns the paths deleted. Directories without a readable manifest
    (not written by this trainer, or a save in progress under its hidden name) are never touched."""
    if keep < 1:
        raise CheckpointError(f"keep must be at least 1 (the checkpoint just written), not {keep}")
    found = []
    for entry in os.listdir(folder) if os.path.isdir(folder) else []:
        full = os.path.join(folder, entry)
        if not (entry.startswith("v") and entry[1:].isdigit()) or os.path.islink(full):
            continue
        try:
            manifest = read_manifest(full)
        except CheckpointError:
            continue
        if is_resumable(manifest) == resumable:
            found.append((manifest["version"], full))
    removed = [full for _, full in sorted(found, reverse=True)[keep:]]
    for full in removed:
        _remove_atomically(full)
    return removed


def _remove_atomically(path: str) -> None:
    """Renamed to a hidden `.replaced-<pid>-` name first: a kill mid-delete leaves no half
    checkpoint under its own name (the next save removes the leftover)."""
    parent, name = os.path.split(path)
    doomed = os.path.join(parent, f".{name}.replaced-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    os.rename(path, doomed)
    shutil.rmtree(doomed, ignore_errors=True)


#: files beside the tensors (configs, tokenizer, manifest) and the file system's block rounding
_SLACK_BYTES = 1 << 20


class DiskFullError(CheckpointError):
    """The disk cannot hold the checkpoint: nothing was written (or what was, was removed)."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"no space left to write the checkpoint {path} ({detail}): nothing was saved. Free space on that disk, "
                         "start the trainer with --output-dir on a larger one, or keep fewer checkpoints (ssr selfplay "
                         "--keep-checkpoints, a larger --save-every)")
        self.path = path


def checkpoint_bytes(policy: Any, trainer: Any, resumable: bool) -> int:
    """About what a save writes: the weights (the trainable ones for LoRA: the adapter), and for a
    resumable checkpoint the optimizer's state tensors as they are now and the fp32 masters."""
    weights = trainer.params if policy.lora else {id(t): t for t in policy.module.state_dict().values()}.values()
    total = sum(t.numel() * t.element_size() for t in weights)
    if resumable:
        total += sum(v.numel() * v.element_size() for state in trainer.optimizer.state.values() for v in state.values() if hasattr(v, "numel"))
        # fp32 master weights of a bf16 / fp16 model (precision.py) are saved beside the optimizer state.
        total += sum(m.numel() * m.element_size() for _, m in getattr(getattr(trainer, "precision", None), "pairs", []))
    return total


def check_space(path: str, needed: int) -> None:
    """Refuses a save the file system of `path` (its nearest existing parent) cannot hold, before writing."""
    probe = os.path.abspath(path)
    while not os.path.exists(probe):
        probe = os.path.dirname(probe)
    free = shutil.disk_usage(probe).free
    if free < needed + needed // 20 + _SLACK_BYTES:
        raise DiskFullError(os.path.abspath(path), f"{_size(free)} free on that disk, the checkpoint needs about {_size(needed)}")


def _size(count: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if count < 1024 or unit == "GiB":
            return f"{count} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    return f"{count} B"
