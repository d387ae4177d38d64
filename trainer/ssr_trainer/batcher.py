"""Batching of concurrent completion requests: one worker thread, one padded batch at a time.

A request waits in a queue; the worker takes the first one, waits up to `window_s` for as many
sequences as the previous batch had (the clients seen in flight; `max_batch` before the first
batch), and runs what is queued as one batch. So a lone client never waits for the window, and
concurrent clients whose requests arrive a few ms apart share a batch. Requests that come while
a batch runs form the next one. A request is never split across batches (its `n` choices
stay together) and a failing batch fails every request in it with the same error.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from typing import Callable, Generic, List, Sequence, Tuple, TypeVar

Job = TypeVar("Job")
Result = TypeVar("Result")


class Batcher(Generic[Job, Result]):
    def __init__(self, run: Callable[[List[Job]], Tuple[List[Result], int]], window_s: float = 0.05, max_batch: int = 32) -> None:
        """`run(jobs)` returns one result per job and the policy version that produced them."""
        self._run = run
        self.window_s = window_s
        self.max_batch = max(1, max_batch)
        self._queue: List[Tuple[Sequence[Job], "Future[Tuple[List[Result], int]]"]] = []
        self._wake = threading.Condition()
        self._expected = self.max_batch
        #: batches run, requests served, the largest batch in sequences (for /health and tests)
        self.stats = {"batches": 0, "requests": 0, "sequences": 0, "largest_batch": 0}
        threading.Thread(target=self._work, name="ssr-sampling-batcher", daemon=True).start()

    def submit(self, jobs: Sequence[Job]) -> Tuple[List[Result], int]:
        """Blocks until the batch holding `jobs` ran; returns their results and the version."""
        future: "Future[Tuple[List[Result], int]]" = Future()
        with self._wake:
            self._queue.append((jobs, future))
            self._wake.notify()
        return future.result()

    def _queued(self) -> int:
        return sum(len(jobs) for jobs, _ in self._queue)

    def _take(self) -> List[Tuple[Sequence[Job], "Future[Tuple[List[Result], int]]"]]:
        with self._wake:
            while not self._queue:
                self._wake.wait()
            deadline = time.monotonic() + self.window_s
            while self._queued() < min(self._expected, self.max_batch) and (left := deadline - time.monotonic()) > 0:
                self._wake.wait(left)
            taken, size = [], 0
            while self._queue and (not taken or size + len(self._queue[0][0]) <= self.max_batch):
                entry = self._queue.pop(0)
                taken.append(entry)
                size += len(entry[0])
            self._expected = size
            return taken

    def _work(self) -> None:
        while True:
            taken = self._take()
            jobs = [job for request, _ in taken for job in request]
            try:
                results, version = self._run(jobs)
            except BaseException as error:  # noqa: BLE001 (handed to the waiting requests, which answer with it)
                for _, future in taken:
                    future.set_exception(error)
                continue
            self.stats["batches"] += 1
            self.stats["requests"] += len(taken)
            self.stats["sequences"] += len(jobs)
            self.stats["largest_batch"] = max(self.stats["largest_batch"], len(jobs))
            start = 0
            for request, future in taken:
                future.set_result((results[start : start + len(request)], version))
                start += len(request)
