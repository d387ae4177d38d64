"""`torch.save` to a path, with a full disk reported as an OSError rather than a dead process.

torch (1.13 at least) writes its zip container from C++: a failed write raises a RuntimeError,
and the writer's destructor then fails again and calls std::terminate — a trainer whose disk
fills mid-save aborts without a word. Here torch writes into a Python file object that records
the first OSError and swallows the rest, so torch finishes normally and the error is raised after.
"""

from __future__ import annotations

import io
from typing import Any, Optional

import torch


class _RecordingWriter(io.RawIOBase):
    def __init__(self, out: Any) -> None:
        self.out = out
        self.error: Optional[OSError] = None

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        written = 0
        while self.error is None and written < len(view):
            try:
                written += self.out.write(view[written:]) or 0
            except OSError as error:
                self.error = error
        return len(view)


def torch_save(obj: Any, path: str) -> None:
    """`torch.save(obj, path)`; raises the first OSError of the writes (ENOSPC: the disk is full)."""
    with open(path, "wb", buffering=0) as out:
        writer = _RecordingWriter(out)
        torch.save(obj, writer)
    if writer.error is not None:
        raise writer.error
