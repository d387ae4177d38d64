"""The state a multi-process trainer enters when a weight load failed on some rank WHILE copying
(rank_weights.py): after the ranks agreed to load, one rank's copy stopped (out of memory, any
error), so some ranks hold the new weights, others the old or part of the new. Training on from
there would reduce gradients of different models: steps that answer 200 and learn nothing.

No rollback: restoring every rank's previous weights would need a copy of them taken before every
load (DDP: one more full copy of the model per rank; FSDP: of the full weights each rank holds
under summon_full_params, e.g. 32 GB of host memory per rank for 8B parameters in fp32, on top of
the staged copy), and restoring is itself a copy that can fail. Instead every later step, save and
load is refused with the failure, the rank, and the way out (restart from the last checkpoint), and
/health answers 503 saying so, until the job is restarted.
"""

from __future__ import annotations

from typing import List, Tuple


class RanksApartError(RuntimeError):
    """The trainer's ranks hold different weights after a failed copy: nothing may train or save."""


def apart_message(failures: List[Tuple[int, str]], world: int, path: str, version: int) -> str:
    """What every refusal says from then on: the failing ranks and the first's error, what state
    the weights are in, and the way out."""
    rank, first = failures[0]
    others = f" (it failed on ranks {', '.join(str(r) for r, _ in failures)} of {world})" if len(failures) > 1 else ""
    return (f"the trainer's ranks hold different weights: loading {path} failed on rank {rank} of {world} while copying the weights in "
            f"({first}){others}, after the other ranks had loaded them, so the ranks are no longer at one version ({version} or {path}'s). "
            "Every step, save and load is refused until the trainer is restarted: restart the job from the last checkpoint "
            "(--resume <checkpoint>; /weights/save's checkpoints before this load are intact)")


def half_copied_message(path: str, error: Exception, version: int) -> str:
    """What every refusal says after a one-process trainer's copy stopped part way: the model holds
    part of `path`'s weights and part of its version's, which no checkpoint describes."""
    return (f"the trainer's weights are part old, part new: copying {path}'s weights into the model stopped part way ({error}), "
            f"after some tensors were copied, so they are neither version {version} nor {path}'s. "
            "Every step, save and load is refused until the trainer is restarted: restart the job from the last checkpoint "
            "(--resume <checkpoint>; /weights/save's checkpoints before this load are intact)")


def refuse_if_apart(trainer: object) -> None:
    """Raises RanksApartError when `trainer` is in that state (see the module's docstring)."""
    apart = getattr(trainer, "ranks_apart", None)
    if apart:
        raise RanksApartError(apart)
