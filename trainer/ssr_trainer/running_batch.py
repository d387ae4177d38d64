"""The sequences decoding together now: the unit of continuous batching.

Sequences join at any step (prefilled, from a cached prefix when one is given: only the tokens
after it are computed) and leave as soon as they finish; each step samples one token for every
running row and decodes them all with one batched forward. A row draws from its own seeded
generator and gets its own logits (per-row positions, padded keys masked), so a seeded sequence
gives the same tokens whatever runs beside it, barring a draw within float rounding of a token
boundary (a padded forward sums over more, zero, terms).

Logprobs (of the model's own distribution: temperature 1, no top-p, as the trainer computes them):
- ``decode``: the log-softmax of the logits the token was drawn from. Free; within ~1e-6 of the
  trainer's teacher-forced pass in fp32 (measured on the tiny model), so the trainer's ratio at
  equal weights is 1 to ~1e-6.
- ``teacher-forced``: a pass through ``batch_logprobs`` (the trainer's code) over prompt +
  completion when a sequence finishes: bit-identical to the trainer's for a sequence that
  finishes alone. It costs a whole forward per sequence and is needed where decoding is not fp32
  (bf16 KV-cached decoding drifts from the full pass by ~1e-2).
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, List, Optional, Sequence, Set, Tuple

import torch

from .policy import Policy
from .sampling import Completion, SampleJob, batch_completion_logprobs, sample_rows, sequence_rng

LOGPROB_MODES = ("decode", "teacher-forced")


@dataclass
class Prefix:
    """KV cache of a prompt's first `length` tokens, computed earlier (see prefix_cache.py)."""

    length: int
    cache: Any


@dataclass
class Running:
    """One sequence being sampled, and what it has produced so far."""

    job: SampleJob
    #: the caller's handle (the request it belongs to)
    tag: Any = None
    rng: random.Random = field(default_factory=random.Random)
    stops: Set[int] = field(default_factory=set)
    token_ids: List[int] = field(default_factory=list)
    logprobs: List[float] = field(default_factory=list)
    finish_reason: str = "length"
    #: after it finished, when the batch keeps caches: KV of prompt + token_ids[:-1], one row
    cache: Any = None

    def completion(self) -> Completion:
        return Completion(token_ids=self.token_ids, logprobs=self.logprobs, finish_reason=self.finish_reason)


class RunningBatch:
    def __init__(self, policy: Policy, logprobs: str = "teacher-forced", keep_caches: bool = False) -> None:
        if logprobs not in LOGPROB_MODES:
            raise ValueError(f"logprobs must be one of {', '.join(LOGPROB_MODES)}, got {logprobs!r}")
        self.policy = policy
        self.logprobs = logprobs
        self.keep_caches = keep_caches
        self.rows: List[Running] = []
        self._state: Any = None
        self._logits: Optional[torch.Tensor] = None
        #: batched decode forwards run, and the most rows one of them held
        self.forwards = 0
        self.widest = 0

    def __len__(self) -> int:
        return len(self.rows)

    @torch.no_grad()
    def admit(self, jobs: Sequence[SampleJob], tags: Sequence[Any] = (), prefixes: Sequence[Optional[Prefix]] = ()) -> Tuple[List[Running], List[Running]]:
        """Prefills `jobs` into the batch (after `prefixes[i]` where given). Returns all their
        sequences and those already finished (nothing to sample: `max_tokens` 0)."""
        seqs = [Running(job, tags[i] if tags else None, sequence_rng(job.seed), {int(s) for s in job.stop_ids}) for i, job in enumerate(jobs)]
        joining = [i for i, job in enumerate(jobs) if job.max_tokens > 0]
        fresh = [i for i in joining if not prefixes or prefixes[i] is None]
        logits: List[torch.Tensor] = [None] * len(jobs)  # type: ignore[list-item]
        caches: List[Any] = [None] * len(jobs)
        if fresh:
            rows, fresh_caches = self.policy.prefill([jobs[i].prompt_ids for i in fresh])
            for row, i in enumerate(fresh):
                logits[i], caches[i] = rows[row], fresh_caches[row]
        for i in joining:
            if caches[i] is None:
                prefix = prefixes[i]
                suffix = torch.tensor([jobs[i].prompt_ids[prefix.length :]], device=self.policy.device)
                row, caches[i] = self.policy.decode_step(suffix, prefix.cache)
                logits[i] = row[0]
        if joining:
            self._state = self.policy.join_cache(self._state, [caches[i] for i in joining])
            new = torch.stack([logits[i] for i in joining])
            self._logits = new if self._logits is None else torch.cat([self._logits, new])
            self.rows += [seqs[i] for i in joining]
        return seqs, [seq for i, seq in enumerate(seqs) if i not in joining]

    @torch.no_grad()
    def step(self) -> List[Running]:
        """Samples a token for every row and decodes the rows still running; returns those that
        finished (they have left the batch)."""
        rows = self._logits.float().cpu()
        logprobs = torch.log_softmax(rows, dim=-1) if self.logprobs == "decode" else None
        jobs = [seq.job for seq in self.rows]
        tokens = sample_rows(rows, [job.temperature for job in jobs], [job.top_p for job in jobs], [seq.rng for seq in self.rows])
        chosen = logprobs.gather(-1, torch.tensor(tokens)[:, None])[:, 0].tolist() if logprobs is not None else None
        keep, done = [], []
        for row, (seq, token) in enumerate(zip(self.rows, tokens)):
            seq.token_ids.append(token)
            if chosen is not None:
                seq.logprobs.append(chosen[row])
            if token in seq.stops:
                seq.finish_reason = "stop"
                done.append(row)
            elif len(seq.token_ids) < seq.job.max_tokens:
                keep.append(row)
            else:
                done.append(row)
        finished = [self.rows[row] for row in done]
        if finished and self.keep_caches:
            own = self.policy.split_cache(self._state)
            for row, seq in zip(done, finished):
                seq.cache = own[row]
        if finished and self.logprobs == "teacher-forced":
            computed = batch_completion_logprobs(self.policy, [s.job.prompt_ids for s in finished], [s.token_ids for s in finished])
            for seq, values in zip(finished, computed):
                seq.logprobs = values
        if len(keep) < len(self.rows):
            self._state = self.policy.select_rows(self._state, keep) if keep else None
            self.rows = [self.rows[row] for row in keep]
        if self.rows:
            self.widest = max(self.widest, len(self.rows))
            self.forwards += 1
            self._logits, self._state = self.policy.decode_batch([seq.token_ids[-1] for seq in self.rows], self._state)
        else:
            self._logits = None
        return finished


@contextmanager
def evaluating(policy: Policy) -> Iterator[Policy]:
    """The policy in eval mode for the duration (sampling), its training mode restored after."""
    was_training = policy.module.training
    policy.module.eval()
    try:
        yield policy
    finally:
        policy.module.train(was_training)
