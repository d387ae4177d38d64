"""Runs `python -m ssr_trainer.service` in a process whose file reads of one checkpoint come back
cut short, as a truncated copy or a short read on this process's mount would: `torch.load` of any
file under $SSR_TEST_TRUNCATED_UNDER gets its first half only, and the real loader fails on it.
test_distributed.py starts rank 1 of a job with it: the ranks' checks (sizes, sha256) all pass,
then rank 1's read fails mid-load while rank 0's succeeds. Under $SSR_TEST_RESHAPED_UNDER (when set)
the read succeeds but a weights file's last tensor comes back a row short, as a stale or foreign file
on this process's mount would: rank 1 alone then reads weights that do not fit the model. Under
$SSR_TEST_COPY_FAILS_UNDER (when set) the weights read and fit, but copying them into the model
stops after half the tensors with an out-of-memory error, as a GPU short of memory would."""

import io
import os
import runpy
import sys

import torch

from ssr_trainer.tiny_policy import TinyPolicy

under = os.path.abspath(os.environ["SSR_TEST_TRUNCATED_UNDER"]) + os.sep
real_load = torch.load


copy_fails = os.path.abspath(os.environ["SSR_TEST_COPY_FAILS_UNDER"]) + os.sep if os.environ.get("SSR_TEST_COPY_FAILS_UNDER") else None


class FailsMidCopy(dict):
    """Weights read from under $SSR_TEST_COPY_FAILS_UNDER: their copy-in fails halfway."""


def apply_then_fail(self, staged):
    if not isinstance(staged, FailsMidCopy):
        return real_apply(self, staged)
    names = list(staged)
    self.module.load_state_dict({name: staged[name] for name in names[: len(names) // 2]}, strict=False)
    raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB (injected after copying half the tensors)")


reshaped = os.path.abspath(os.environ["SSR_TEST_RESHAPED_UNDER"]) + os.sep if os.environ.get("SSR_TEST_RESHAPED_UNDER") else None


def cut_short(f, *args, **kwargs):
    if isinstance(f, (str, os.PathLike)) and os.path.abspath(f).startswith(under):
        with open(f, "rb") as handle:
            data = handle.read()
        f = io.BytesIO(data[: len(data) // 2])
    loaded = real_load(f, *args, **kwargs)
    if reshaped and isinstance(f, (str, os.PathLike)) and os.path.abspath(f).startswith(reshaped) and isinstance(loaded, dict):
        last = list(loaded)[-1]
        loaded[last] = loaded[last][:-1].clone()
    if copy_fails and isinstance(f, (str, os.PathLike)) and os.path.abspath(f).startswith(copy_fails) and isinstance(loaded, dict):
        loaded = FailsMidCopy(loaded)
    return loaded


torch.load = cut_short
real_apply = TinyPolicy.apply_weights
TinyPolicy.apply_weights = apply_then_fail
sys.argv[0] = "ssr_trainer.service"
runpy.run_module("ssr_trainer.service", run_name="__main__", alter_sys=True)
