"""`/update_weights_from_disk` on a multi-process trainer (distributed.py): every rank loads the
checkpoint's weights, so that the next step trains from them everywhere and rank 0 serves them.

All or none. Rank 0 hands the path to every rank (a shared file system, as for `--resume`). Each
rank checks the checkpoint (manifest, sizes, sha256, model identity) and then reads its weights
into host memory (`stage_weights`: every file read, and so every I/O error, happens here) and checks
what it read against the model's tensors (`check_staged`: every name, every shape), changing
nothing. The ranks then compare their outcomes (one all-gather); only if every rank staged the
weights does any copy them in, and if any failed none does: every rank keeps its old weights and
version, and the error names each failing rank and the path. Copying in is then a copy in memory
of tensors whose names and shapes match, which cannot stop halfway on one rank (torch's
load_state_dict copies every tensor that fits before it raises on one that does not: a rank that read
another file than its peers would have copied part of it while they copied all).

A copy can still fail for another reason (out of memory, any error on one rank): then the ranks
agree a second time, after the copy (one all-gather), and if any rank failed, every rank enters the
"ranks apart" state (ranks_apart.py): the error names the rank and its failure, and every later
step, save and load is refused with it until the job restarts from a checkpoint.

DDP copies into its replica; FSDP into the full parameters of `summon_full_params(writeback=True)`,
which writes them back into each rank's shard (for that moment every rank holds the full fp32
weights, and the staged copy on the host), then gathers them into rank 0's sampling copy as after
a step. The optimizer keeps its state, as in one process.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any, Dict, List, Optional, Tuple

from .checkpoint import CheckpointError, WeightsReadError, check_staged, check_weights, stage_weights
from .fsdp_state import gather_full_weights
from .ranks_apart import RanksApartError, apart_message


def load_on_every_rank(trainer: Any, path: str) -> Dict[str, Any]:
    """Every rank (a collective): the checkpoint's weights at its version. Raises CheckpointError on
    every rank when any rank cannot check or read it (WeightsReadError when every check passed and
    a read failed); no rank's weights change then. Raises RanksApartError on every rank when the
    copy itself failed on any rank (and sets `trainer.ranks_apart`)."""
    context = nullcontext()
    if trainer.sharded:
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

        context = FSDP.summon_full_params(trainer.wrapped, writeback=True)
    with context:
        manifest: Optional[Dict[str, Any]] = None
        staged: Any = None
        outcome: Optional[Tuple[str, str]] = None  # (kind, message) of this rank's failure
        try:
            manifest = check_weights(path, trainer.policy)
            staged = stage_weights(path, trainer.policy)
            # Names and shapes checked here, before the agreement: a copy-in that stopped halfway on
            # one rank, after the others had copied, would leave the ranks' weights apart.
            check_staged(path, staged, trainer.layout)
        except WeightsReadError as error:
            outcome = ("read", str(error))
        except CheckpointError as error:
            outcome = ("check", str(error))
        failures = [(rank, kind, message) for rank, found in enumerate(trainer.ranks.gather(outcome)) if found is not None
                    for kind, message in [found]]
        if failures:
            raise _refusal(failures, trainer.ranks.world, path, trainer.version)
        copied = _attempt(trainer.policy.apply_weights, staged)
    if copied is None:  # DDP with fp32 masters: the next step trains from the loaded weights
        copied = _attempt(trainer.precision.sync_from_model)
    del staged  # the host copy, before the collectives below
    # Every rank reaches this agreement, whatever its copy raised: a rank that left here would hang its peers.
    apart = [(rank, found) for rank, found in enumerate(trainer.ranks.gather(copied)) if found is not None]
    if apart:
        trainer.ranks_apart = apart_message(apart, trainer.ranks.world, path, trainer.version)
        raise RanksApartError(trainer.ranks_apart)
    assert manifest is not None
    trainer.version = manifest["version"]
    if trainer.sharded:
        gather_full_weights(trainer)
    return manifest


def _attempt(copy: Any, *args: Any) -> Optional[str]:
    """None when `copy(*args)` succeeded, else its error in one line (for the agreement after the copy)."""
    try:
        copy(*args)
    except Exception as error:  # noqa: BLE001 (out of memory, or anything: the ranks must still agree)
        lines = str(error).strip().splitlines()
        return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__
    return None


def _refusal(failures: List[Tuple[int, str, str]], world: int, path: str, version: int) -> CheckpointError:
    """One error for every rank: which ranks failed and why (the first's message in full)."""
    rank, kind, first = failures[0]
    ranks = ", ".join(str(r) for r, _, _ in failures)
    kept = f"no rank loaded {path}: all {world} keep their weights at version {version}"
    others = f" (failed on ranks {ranks} of {world})" if len(failures) > 1 else ""
    message = f"rank {rank} of {world}: {first}{others}; {kept}"
    # A checkpoint every rank checked but some could not read: the file system, not the request.
    only_reads = all(k == "read" for _, k, _ in failures)
    return WeightsReadError(message) if only_reads else CheckpointError(message)
