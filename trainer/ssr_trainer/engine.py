"""Continuous batching of completion requests: one worker thread, one running batch.

A request's sequences (one per choice) join the running batch at the next decode step, prefilled
from the longest cached prefix of their prompt (prefix_cache.py), and each request is answered as
soon as its own sequences finish: nobody waits for a batch to fill or for a longer neighbour. The
weights stay fixed while sequences run (`ServedWeights.reading`); when new weights are waiting to
be served, no new sequence joins until the running ones finish, so every completion is sampled
by one version, the one it reports.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Set, Tuple

from .prefix_cache import PrefixCache
from .running_batch import LOGPROB_MODES, Running, RunningBatch, evaluating
from .sampling import Completion, SampleJob
from .served import ServedWeights


@dataclass(eq=False)
class _Request:
    jobs: Sequence[SampleJob]
    future: "Future[Tuple[List[Completion], int]]" = field(default_factory=Future)
    results: Dict[int, Completion] = field(default_factory=dict)


class SamplingEngine:
    def __init__(self, served: ServedWeights, max_batch: int = 32, window_s: float = 0.0, logprobs: str = "decode",
                 prefix_cache_bytes: int = 0) -> None:
        """`window_s`: how long an idle engine waits for as many sequences as ran together last
        time before it starts (0: never; later arrivals join the running batch anyway)."""
        if logprobs not in LOGPROB_MODES:
            raise ValueError(f"logprobs must be one of {', '.join(LOGPROB_MODES)}, got {logprobs!r}")
        self.served = served
        self.max_batch = max(1, max_batch)
        self.window_s = window_s
        self.logprobs = logprobs
        self.prefixes = PrefixCache(served.policy, prefix_cache_bytes)
        self._queue: List[_Request] = []
        self._wake = threading.Condition()
        self._expected = 1
        #: decode forwards (`batches`), requests and sequences served, the most rows one forward held
        self.stats = {"batches": 0, "requests": 0, "sequences": 0, "largest_batch": 0}
        self._forwards_before = 0
        threading.Thread(target=self._work, name="ssr-sampling-engine", daemon=True).start()

    def submit(self, jobs: Sequence[SampleJob]) -> Tuple[List[Completion], int]:
        """Blocks until every job ran; returns their completions and the version that sampled them."""
        request = _Request(list(jobs))
        with self._wake:
            self._queue.append(request)
            self._wake.notify()
        return request.future.result()

    def _wait_for_work(self) -> None:
        with self._wake:
            while not self._queue:
                self._wake.wait()
            deadline = time.monotonic() + self.window_s
            while sum(len(r.jobs) for r in self._queue) < min(self._expected, self.max_batch) and (left := deadline - time.monotonic()) > 0:
                self._wake.wait(left)
        while self.served.wanted:  # new weights (or, shared, a step) go first: locks are not fair
            time.sleep(0.001)

    def _work(self) -> None:
        while True:
            self._wait_for_work()
            with self.served.reading() as policy, evaluating(policy):
                version = self.served.version
                self.prefixes.reset(self.served.generation)
                batch = RunningBatch(policy, self.logprobs, keep_caches=self.prefixes.enabled)
                self._forwards_before = self.stats["batches"]
                admitted: Set[_Request] = set()
                try:
                    self._run(batch, admitted, version)
                except BaseException as error:  # noqa: BLE001 (handed to the waiting requests, which answer with it)
                    for request in admitted:
                        request.future.set_exception(error)
                self._expected = max(1, batch.widest)

    def _run(self, batch: RunningBatch, admitted: Set[_Request], version: int) -> None:
        """Steps the batch until it is empty, admitting queued requests before each step unless new weights wait."""
        while True:
            if not self.served.wanted:
                for request in self._take(self.max_batch - len(batch), empty=not len(batch)):
                    admitted.add(request)
                    prefixes = [self.prefixes.lookup(job.prompt_ids) if job.max_tokens > 0 else None for job in request.jobs]
                    _, finished = batch.admit(request.jobs, [(request, i) for i in range(len(request.jobs))], prefixes)
                    self._finish(finished, admitted, version)
            if not len(batch):
                return
            finished = batch.step()
            self.stats["batches"] = self._forwards_before + batch.forwards  # live: a busy engine may never pause
            self.stats["largest_batch"] = max(self.stats["largest_batch"], batch.widest)
            self._finish(finished, admitted, version)

    def _take(self, room: int, empty: bool) -> List[_Request]:
        """Queued requests that fit in `room` rows, in order (a request's choices stay together; one
        larger than the batch runs when the batch is empty)."""
        taken: List[_Request] = []
        with self._wake:
            while self._queue and (len(self._queue[0].jobs) <= room or (empty and not taken)):
                request = self._queue.pop(0)
                taken.append(request)
                room -= len(request.jobs)
        return taken

    def _finish(self, finished: List[Running], admitted: Set[_Request], version: int) -> None:
        for seq in finished:
            request, index = seq.tag
            request.results[index] = seq.completion()
            if seq.cache is not None:
                self.prefixes.store(seq.job.prompt_ids + seq.token_ids[:-1], seq.cache)
                seq.cache = None
            if len(request.results) == len(request.jobs):
                admitted.discard(request)
                self.stats["requests"] += 1
                self.stats["sequences"] += len(request.jobs)
                request.future.set_result(([request.results[i] for i in range(len(request.jobs))], version))
