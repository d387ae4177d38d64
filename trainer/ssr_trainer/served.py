"""The weights sampling reads, and their version.

`copy` (default): sampling reads its own copy of the weights, so it goes on while a train step
runs (on the previous version, labelled as such). After the step — or a `/update_weights_from_disk`
— the new weights are copied in under `lock`: the sampling engine, which holds it while sequences
run, sees `wanted`, admits no new sequence, lets the running ones finish (each is sampled by one
version from start to end) and lets the copy in; the next sequences get the new version. Memory: one more copy of the parameters (for a LoRA
policy the frozen base too), in the model's dtype, e.g. +1 GB for 0.5B parameters in bf16.

`shared`: sampling reads the trained weights themselves and therefore never runs while they
change: sampling holds the service's training lock too (no extra memory; sampling waits for
steps, which take the training lock through `training()` so the engine drains for them as well).
"""

from __future__ import annotations

import copy
import threading
from contextlib import contextmanager
from typing import Any, ContextManager, Iterator, Optional

from .policy import Policy

SAMPLING_WEIGHTS = ("copy", "shared")


class ServedWeights:
    def __init__(self, policy: Policy, version: int, mode: str = "copy", training_lock: Optional[threading.Lock] = None) -> None:
        if mode not in SAMPLING_WEIGHTS:
            raise ValueError(f"sampling weights must be one of {', '.join(SAMPLING_WEIGHTS)}, got {mode!r}")
        self.mode = mode
        self.version = version
        self.lock = threading.Lock()
        self._training_lock = training_lock or threading.Lock()
        self.policy = _frozen_copy(policy) if mode == "copy" else policy
        self._waiting = 0
        self._count = threading.Lock()
        #: weights published so far: caches computed from earlier weights are stale (also when a
        #: load brings back the same version number with other weights)
        self.generation = 0

    @property
    def wanted(self) -> bool:
        """Someone waits for the lock sampling holds (a publish; in shared mode also a step)."""
        return self._waiting > 0

    @contextmanager
    def _acquire(self, lock: threading.Lock) -> Iterator[None]:
        with self._count:
            self._waiting += 1
        try:
            lock.acquire()
        finally:
            with self._count:
                self._waiting -= 1
        try:
            yield
        finally:
            lock.release()

    def training(self) -> ContextManager[Any]:
        """The service's training lock, for a step, a save or a load. In shared mode sampling holds
        it too, so the wait is signalled (`wanted`); in copy mode sampling goes on meanwhile."""
        return self._acquire(self._training_lock) if self.mode == "shared" else self._training_lock

    @contextmanager
    def reading(self) -> Iterator[Policy]:
        """Holds the weights steady while sequences run; yields the policy to sample from."""
        if self.mode == "shared":
            with self._training_lock, self.lock:
                yield self.policy
        else:
            with self.lock:
                yield self.policy

    def publish(self, trained: Policy, version: int) -> None:
        """The trained weights are now `version`: serve them. The caller holds the training lock."""
        with self._acquire(self.lock):
            if self.mode == "copy":
                self.policy.module.load_state_dict(trained.module.state_dict())
            self.version = version
            self.generation += 1


def _frozen_copy(policy: Policy) -> Policy:
    served = copy.copy(policy)
    served.module = copy.deepcopy(policy.module)
    served.module.requires_grad_(False)
    served.module.eval()
    return served
