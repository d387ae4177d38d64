"""`POST /weights/save` and `POST /update_weights_from_disk`: writing a checkpoint (resumable, or
weights only for a sampler) and serving one, for `PolicyService` (policy_service.py).
"""

from __future__ import annotations

import errno
import json
import os
import time
from typing import Any

from .checkpoint import CheckpointError, WeightsReadError, save_checkpoint
from .ranks_apart import RanksApartError
from .retention import DiskFullError, check_space, checkpoint_bytes, prune_checkpoints
from .server import ApiError, bad_request

#: `load_format` values of SGLang's /update_weights_from_disk that mean "what the path holds"
_LOAD_FORMATS = (None, "auto", "ssr")
#: the folder under --output-dir that weights-only saves (sampler syncs) go to
SAMPLER_EXPORTS = "sampler"


def save(service: Any, body: dict) -> dict:
    """`{path?, weights_only?, keep?}`: a checkpoint written atomically. Resumable (weights,
    optimizer, steps, version, RNG) to `<output-dir>/v<N>` by default; `weights_only` (what a
    sampler loads) to `<output-dir>/sampler/v<N>`. `keep`: then delete all but the newest
    `keep` of that kind in that folder. A full disk is answered 507 naming the path."""
    weights_only, keep = body.get("weights_only", False), body.get("keep")
    if not isinstance(weights_only, bool):
        raise bad_request("'weights_only' must be a boolean")
    if keep is not None and (not isinstance(keep, int) or isinstance(keep, bool) or keep < 1):
        raise bad_request("'keep' must be a whole number of checkpoints, at least 1")
    with service.served.training():
        service.refuse_if_apart()  # a weights-only save asks no rank: refused here
        folder = os.path.join(service.output_dir, SAMPLER_EXPORTS) if weights_only else service.output_dir
        path = body.get("path") or os.path.join(folder, f"v{service.trainer.version}")
        if not isinstance(path, str):
            raise bad_request("'path' must be a string")
        needed = checkpoint_bytes(service.policy, service.trainer, not weights_only)
        try:
            check_space(path, needed)
            manifest = save_checkpoint(service.policy, service.trainer, path, resumable=not weights_only)
            removed = prune_checkpoints(os.path.dirname(os.path.abspath(path)), keep, not weights_only) if keep else []
        except DiskFullError as error:
            raise ApiError(507, str(error), "insufficient_storage") from None
        except CheckpointError as error:
            raise bad_request(str(error)) from None
        except (OSError, RuntimeError) as error:  # torch reports a failed write as a RuntimeError
            raise _storage_failure(path, error, needed) from None
    return {"path": os.path.abspath(path), "version": manifest["version"], "steps": manifest["steps"], "kind": manifest["model"]["weights"],
            "resumable": not weights_only, "removed": removed}


def update_weights_from_disk(service: Any, body: dict) -> dict:
    """SGLang's request (`{model_path, load_format?, abort_all_requests?}`): loads the weights of a
    checkpoint `/weights/save` wrote (by this service or another built the same way) and serves
    them at the checkpoint's version. Only the weights: the optimizer state stays this
    service's own (to continue training from a checkpoint, restart with `--resume`)."""
    path = body.get("model_path")
    if not isinstance(path, str) or not path:
        raise _failed(400, "'model_path' must be the path of a checkpoint directory written by /weights/save")
    if body.get("load_format") not in _LOAD_FORMATS:
        raise _failed(400, f"load_format {json.dumps(body.get('load_format'))} is not supported: this service loads /weights/save checkpoints (auto)")
    started = time.perf_counter()
    with service.served.training():
        service.refuse_if_apart()
        try:  # every rank of a multi-process trainer loads them (rank_weights.py)
            manifest = service.trainer.load_weights(path)
        except RanksApartError as error:  # the copy failed on some rank after the others had copied
            raise service.apart_refusal(error) from None
        except WeightsReadError as error:  # it passed every check, then a read failed: the storage, not the request
            raise _failed(500, f"cannot load {path}: {error}. The served weights stay; check the file system the trainer "
                          "reads checkpoints from (every rank must see the same files), then sync again", "load_error") from None
        except CheckpointError as error:
            raise _failed(400, f"cannot load {path}: {error}") from None
        service.served.publish(service.policy, service.trainer.version)
    kind = manifest["model"]["weights"]
    return {"success": True, "message": f"loaded {os.path.abspath(path)} ({kind} weights) in {time.perf_counter() - started:.2f} s: serving version {service.version}",
            "num_paused_requests": 0, "policy_version": service.version}


def _storage_failure(path: str, error: Exception, needed: int) -> ApiError:
    """A save the disk refused mid-write (the space check passed: another writer filled it, or a
    quota): nothing was left behind (the partial dir is gone), and the run must stop."""
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
        return ApiError(507, str(DiskFullError(os.path.abspath(path), error.strerror or "ENOSPC")), "insufficient_storage")
    return ApiError(500, f"cannot write the checkpoint {os.path.abspath(path)} (about {needed} bytes): {str(error).splitlines()[0]}. "
                    "Check that the trainer's --output-dir is writable and has room", "storage_error")


def _failed(status: int, message: str, kind: str = "invalid_request_error") -> ApiError:
    """An error that also carries SGLang's `{success: false, message}` fields."""
    return ApiError(status, message, kind, extra={"success": False, "message": message})

