"""`/update_weights_from_disk` on a multi-process trainer (distributed.py): every rank loads the
checkpoint's weights, so that the next step trains from them everywhere and rank 0 serves them.

Rank 0 hands the path to every rank (a shared file system, as for `--resume`). All ranks check the
checkpoint first (reading only) and compare their answers: if any rank cannot load it, none does,
and the error names the rank. Then each loads it: DDP into its replica; FSDP into the full
parameters of `summon_full_params(writeback=True)`, which writes them back into each rank's shard
(for that moment every rank holds the full fp32 weights), and then gathers them into rank 0's
sampling copy as after a step. The optimizer keeps its state, as in one process.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any, Dict, Optional

from .checkpoint import CheckpointError, check_weights, load_checked_weights
from .fsdp_state import gather_full_weights


def load_on_every_rank(trainer: Any, path: str) -> Dict[str, Any]:
    """Every rank (a collective): the checkpoint's weights at its version. Raises CheckpointError on
    every rank when any rank cannot load it; nothing is loaded then."""
    context = nullcontext()
    if trainer.sharded:
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

        context = FSDP.summon_full_params(trainer.wrapped, writeback=True)
    with context:
        manifest: Optional[Dict[str, Any]] = None
        try:
            manifest, problem = check_weights(path, trainer.policy), None
        except CheckpointError as error:
            problem = str(error)
        problems = [(rank, p) for rank, p in enumerate(trainer.ranks.gather(problem)) if p is not None]
        if problems:
            rank, first = problems[0]
            raise CheckpointError(first if rank == 0 else f"rank {rank} of {trainer.ranks.world}: {first}")
        load_checked_weights(path, trainer.policy)
    assert manifest is not None
    trainer.version = manifest["version"]
    trainer.precision.sync_from_model()  # DDP with fp32 masters: the next step trains from the loaded weights
    if trainer.sharded:
        gather_full_weights(trainer)
    return manifest
