"""Checkpoints: `/weights/save` writes one, `--resume` loads a resumable one (resume.py), a sampler's
`/update_weights_from_disk` loads the weights of either kind.

    <dir>/                    e.g. checkpoints/v12 (resumable) or checkpoints/sampler/v12 (weights only)
      (the weights)           tiny: model.pt + tiny_config.json; transformers: save_pretrained's
                              files (full) or adapter_config.json + adapter_model.safetensors (LoRA)
      training_state.pt       resumable only: optimizer state_dict, steps (the warm-up position), version, RNG states
      manifest.json           written last: what the checkpoint is (`resumable`), and every file's size and sha256

A weights-only checkpoint (a sampler sync's export) is the weights and the manifest: a third of a
resumable one for full fine-tuning with AdamW (whose two moments are each as large as the weights).
retention.py keeps the newest N of one kind in a folder and deletes the older ones.

The checkpoint is written into a hidden sibling `.<name>.partial-<pid>-<id>` and renamed to `<dir>`
only once complete, so a kill mid-save leaves that hidden dir, never a `<dir>` a resume would load;
the next save next to it removes such leftovers of processes that are gone. A
resume checks every file against the manifest and the model against the manifest's identity
before it loads anything, and refuses with a `CheckpointError` naming the problem.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import shutil
import time
import uuid
from collections.abc import Mapping
from typing import Any, Dict

import torch

from .identity import identity_mismatches, model_identity
from .torch_io import torch_save

MANIFEST_FILE = "manifest.json"
TRAINING_STATE_FILE = "training_state.pt"
FORMAT = "ssr-trainer-checkpoint/1"


class CheckpointError(ValueError):
    """A checkpoint that cannot be written there, or cannot be resumed from (the message says why)."""


def save_checkpoint(policy: Any, trainer: Any, path: str, resumable: bool = True) -> Dict[str, Any]:
    """Writes weights, training state (when `resumable`) and manifest to `path` atomically; returns
    the manifest. An existing checkpoint at `path` is replaced; any other existing non-empty path
    is refused. An OSError (ENOSPC: the disk is full) leaves nothing behind and propagates."""
    path = os.path.abspath(path)
    if os.path.lexists(path) and not _replaceable(path):
        raise CheckpointError(f"{path} exists and is not a checkpoint (no {MANIFEST_FILE}): refusing to overwrite it")
    parent, name = os.path.split(path)
    os.makedirs(parent, exist_ok=True)
    _remove_dead_leftovers(parent)
    partial = os.path.join(parent, f".{name}.partial-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    os.mkdir(partial)
    try:
        weights = policy.save(partial)
        if resumable:
            state = dict(trainer.state_dict(), format=FORMAT, rng=_capture_rng())
            torch_save(state, os.path.join(partial, TRAINING_STATE_FILE))
        manifest = {
            "format": FORMAT,
            "resumable": resumable,
            "version": trainer.version,
            "steps": trainer.steps,
            "model": dict(model_identity(policy), name=policy.name, weights=weights),
            "train_config": dataclasses.asdict(trainer.config),
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "torch": torch.__version__,
            "files": _file_table(partial),  # also fsyncs them
        }
        _write_manifest(partial, manifest)
        _move_into_place(partial, path)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return manifest


def is_resumable(manifest: Dict[str, Any]) -> bool:
    """Whether a checkpoint holds training state to resume from (read from its files, so
    checkpoints written before the manifest recorded `resumable`, all resumable, read right)."""
    return TRAINING_STATE_FILE in manifest["files"]


def load_weights_only(path: str, policy: Any) -> Dict[str, Any]:
    """Loads the weights of the checkpoint at `path` into `policy` (built as the saving run built
    it), after the same checks as a resume; the training state is neither read nor hashed (a
    sampler needs only the weights). Returns the manifest (its `version` is the weights'). All
    files are read before the model changes: a failed read leaves the old weights whole."""
    manifest = check_weights(path, policy)
    load_checked_weights(path, policy)
    return manifest


def check_weights(path: str, policy: Any) -> Dict[str, Any]:
    """`load_weights_only`'s checks alone (manifest, weight files' sizes and sha256, model identity),
    reading only: the ranks of a multi-process trainer all pass them before any loads (rank_weights.py)."""
    return verified_manifest(path, policy, skip=(TRAINING_STATE_FILE,))


class WeightsReadError(CheckpointError):
    """A checkpoint that passed its checks but whose weights could not be read (an I/O error, a file
    replaced since the check): the model was not touched."""


def stage_weights(path: str, policy: Any) -> Any:
    """The weights of a checkpoint `check_weights` passed, read into host memory (`policy.apply_weights`
    copies them in); the model is untouched. Whatever the reader raises: WeightsReadError."""
    try:
        return policy.stage_weights(path)
    except Exception as error:  # noqa: BLE001 (whatever the loader raises, the checkpoint is unusable)
        raise WeightsReadError(f"the weights in {path} do not load: {error}") from error


def check_staged(path: str, staged: Any, layout: Dict[str, Any]) -> None:
    """CheckpointError naming `path` unless `staged` (a name -> tensor map) holds exactly the tensors
    of `layout` (Policy.weights_layout), each of its shape, floating where the model's is: then
    copying it in cannot stop halfway (a shape or a name torch's load_state_dict finds wrong stops it
    after the tensors that fit were copied). A staged form that is not such a map is left to the policy."""
    if not isinstance(staged, Mapping):
        return
    problems = []
    missing, unexpected = sorted(set(layout) - set(staged)), sorted(set(staged) - set(layout))
    if missing:
        problems.append(f"missing {', '.join(missing[:3])}{' …' if len(missing) > 3 else ''}")
    if unexpected:
        problems.append(f"unexpected {', '.join(unexpected[:3])}{' …' if len(unexpected) > 3 else ''}")
    for name in sorted(set(layout) & set(staged)):
        tensor, (shape, dtype) = staged[name], layout[name]
        if not isinstance(tensor, torch.Tensor):
            problems.append(f"{name} is a {type(tensor).__name__}, not a tensor")
        elif tuple(tensor.shape) != tuple(shape):
            problems.append(f"{name} has shape {list(tensor.shape)}, the model's is {list(shape)}")
        elif tensor.is_floating_point() != dtype.is_floating_point:
            problems.append(f"{name} is {str(tensor.dtype).replace('torch.', '')}, the model's is {str(dtype).replace('torch.', '')}")
    if problems:
        raise CheckpointError(f"the weights in {path} do not fit the model: {'; '.join(problems[:5])}")


class WeightsCopyError(CheckpointError):
    """The copy into the model stopped part way (out of memory, any error), after every check passed:
    some tensors are the checkpoint's, the rest the old ones. Its cause is the copy's own error."""


def apply_staged_weights(path: str, policy: Any, staged: Any) -> None:
    """`stage_weights`' result copied into `policy`. The checks before made names and shapes match,
    so this is a copy in memory; should it fail anyway, it is a WeightsCopyError naming `path`."""
    try:
        policy.apply_weights(staged)
    except Exception as error:  # noqa: BLE001
        raise WeightsCopyError(f"the weights in {path} do not fit the model: {error}") from error


def load_checked_weights(path: str, policy: Any) -> None:
    """The weights of a checkpoint `check_weights` passed, into `policy` (checked to fit it first)."""
    staged = stage_weights(path, policy)
    check_staged(path, staged, policy.weights_layout())
    apply_staged_weights(path, policy, staged)


def verified_manifest(path: str, policy: Any, skip: tuple = (), saved_dtype: Any = None) -> Dict[str, Any]:
    """The manifest of the checkpoint at `path` once its files and its model identity are checked."""
    manifest = read_manifest(path)
    _verify_files(path, manifest, skip)
    identity = model_identity(policy)
    if saved_dtype is not None:  # FSDP's fp32 model, the checkpoint's weights in its compute dtype
        identity["dtype"] = str(saved_dtype).replace("torch.", "")
    problems = identity_mismatches(manifest.get("model") or {}, identity)
    if problems:
        raise CheckpointError(f"{path} was saved from another model configuration: {'; '.join(problems)}")
    return manifest


def read_manifest(path: str) -> Dict[str, Any]:
    if not os.path.exists(path):
        raise CheckpointError(f"checkpoint directory {path} does not exist")
    if not os.path.isdir(path):
        raise CheckpointError(f"{path} is not a directory (a checkpoint is the directory /weights/save wrote)")
    manifest_path = os.path.join(path, MANIFEST_FILE)
    if not os.path.isfile(manifest_path):
        raise CheckpointError(f"{path} is not a complete checkpoint: {MANIFEST_FILE} is missing (a save writes it last, so the save "
                              "did not finish, or the directory was not written by /weights/save)")
    try:
        with open(manifest_path) as handle:
            manifest = json.load(handle)
    except (OSError, ValueError) as error:
        raise CheckpointError(f"{manifest_path} cannot be read as JSON: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        found = manifest.get("format") if isinstance(manifest, dict) else type(manifest).__name__
        raise CheckpointError(f"{manifest_path} has format {json.dumps(found)}; this trainer reads {json.dumps(FORMAT)}")
    for key, kind in (("version", int), ("steps", int), ("files", dict), ("model", dict)):
        if not isinstance(manifest.get(key), kind):
            raise CheckpointError(f"{manifest_path} lacks a valid '{key}'")
    return manifest


def saved_version(path: str) -> int:
    """The version a checkpoint dir was saved at (0 when it has no manifest)."""
    if not os.path.isfile(os.path.join(path, MANIFEST_FILE)):
        return 0
    return read_manifest(path)["version"]


def _replaceable(path: str) -> bool:
    return os.path.isdir(path) and not os.path.islink(path) and (not os.listdir(path) or os.path.isfile(os.path.join(path, MANIFEST_FILE)))


def _file_table(root: str) -> Dict[str, Dict[str, Any]]:
    table = {}
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            full = os.path.join(folder, name)
            table[os.path.relpath(full, root)] = {"bytes": os.path.getsize(full), "sha256": _sha256(full, sync=True)}
    return table


def _sha256(path: str, sync: bool = False) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 23), b""):
            digest.update(block)
        if sync:
            os.fsync(handle.fileno())
    return digest.hexdigest()


def _write_manifest(folder: str, manifest: Dict[str, Any]) -> None:
    with open(os.path.join(folder, MANIFEST_FILE), "w") as out:
        json.dump(manifest, out, indent=1)
        out.flush()
        os.fsync(out.fileno())
    _fsync_dir(folder)


def _remove_dead_leftovers(parent: str) -> None:
    """Deletes `.<name>.partial-<pid>-*` / `.replaced-<pid>-*` dirs whose writer process is gone
    (killed mid-save); those of a live process are its save in progress and stay."""
    for entry in os.listdir(parent):
        marker = ".partial-" if ".partial-" in entry else ".replaced-" if ".replaced-" in entry else None
        if not entry.startswith(".") or marker is None:
            continue
        pid = entry.split(marker, 1)[1].split("-", 1)[0]
        if pid.isdigit() and not _process_alive(int(pid)):
            shutil.rmtree(os.path.join(parent, entry), ignore_errors=True)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _move_into_place(partial: str, path: str) -> None:
    """rename(2) replaces a missing or empty `path` atomically; an old checkpoint is moved aside
    first (a crash between the two renames leaves both complete ones, under hidden names)."""
    old = None
    if os.path.isdir(path) and os.listdir(path):
        old = os.path.join(os.path.dirname(partial), os.path.basename(partial).replace(".partial-", ".replaced-"))
        os.rename(path, old)
    os.rename(partial, path)
    _fsync_dir(os.path.dirname(path))
    if old:
        shutil.rmtree(old, ignore_errors=True)


def _fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _verify_files(path: str, manifest: Dict[str, Any], skip: tuple = ()) -> None:
    files = manifest["files"]
    for name, entry in sorted(files.items()):
        if name in skip:
            continue
        full = os.path.join(path, name)
        if not os.path.isfile(full):
            raise CheckpointError(f"{path} is incomplete: {name} is missing")
        size = os.path.getsize(full)
        if size != entry.get("bytes"):
            raise CheckpointError(f"{full} has {size} bytes, the manifest says {entry.get('bytes')}: the file is truncated or was replaced")
        if _sha256(full) != entry.get("sha256"):
            raise CheckpointError(f"{full} is corrupt: its sha256 differs from the manifest's")


def _capture_rng() -> Dict[str, Any]:
    rng: Dict[str, Any] = {"torch": torch.get_rng_state(), "python": random.getstate(), "cuda": None}
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        rng["cuda"] = torch.cuda.get_rng_state_all()
    return rng
