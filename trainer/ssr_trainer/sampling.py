"""Sampling for the policy service: token-exact, with teacher-forced logprobs.

Tokens are drawn from the KV-cached decode logits; the logprobs reported for them are of the
model's own distribution (temperature 1, no top-p truncation), as the trainer computes them: by
default from a separate teacher-forced pass through ``batch_logprobs`` (the trainer's code), so at
equal weights the trainer's ratio on these tokens is exactly 1 (see running_batch.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import List, Optional, Sequence

import torch

from .policy import Policy, batch_logprobs
from .tiny_batch import token_groups


@dataclass
class Completion:
    token_ids: List[int]
    logprobs: List[float]
    finish_reason: str  # "stop" | "length"


def sequence_rng(seed: Optional[int]) -> random.Random:
    """A sequence's own generator: seeded; unseeded, seeded from torch's global generator, whose
    state checkpoints save and a resume restores (unseeded sampling continues as it would have)."""
    return random.Random(int(torch.randint(0, 2**62, (1,))) if seed is None else seed)


def sample_next(logits: torch.Tensor, temperature: float, top_p: float, rng: Optional[random.Random]) -> int:
    """One token from [V] logits: greedy at temperature 0, else temperature + nucleus (top-p)."""
    return sample_rows(logits[None], [temperature], [top_p], [rng or sequence_rng(None)])[0]


def sample_rows(logits: torch.Tensor, temperatures: Sequence[float], top_ps: Sequence[float], rngs: Sequence[random.Random]) -> List[int]:
    """One token per row of [B, V] logits, each row with its own settings and generator, in a few
    batched ops (a row-by-row draw cost more than the batched forward itself).

    Greedy at temperature 0; else one uniform from the row's generator, inverted through the CDF of
    the tempered distribution, over the nucleus (the smallest set of most likely tokens whose mass
    reaches top_p, always at least the top token) when top_p < 1. A row's token depends on its own
    logits and generator only, never on the rows beside it.
    """
    logits = logits.float()
    tokens = [0] * logits.shape[0]
    greedy = [row for row, t in enumerate(temperatures) if t <= 0]
    if greedy:
        for row, token in zip(greedy, logits[greedy].argmax(dim=-1).tolist()):
            tokens[row] = token
    for nucleus in (False, True):
        rows = [row for row, (t, p) in enumerate(zip(temperatures, top_ps)) if t > 0 and (p < 1.0) == nucleus]
        if not rows:
            continue
        scale = torch.tensor([temperatures[row] for row in rows], dtype=torch.float32, device=logits.device)[:, None]
        probs = torch.softmax(logits[rows] / scale, dim=-1)
        order = None
        if nucleus:
            probs, order = torch.sort(probs, dim=-1, descending=True)
            top_p = torch.tensor([top_ps[row] for row in rows], dtype=torch.float32, device=logits.device)[:, None]
            probs = probs * ((torch.cumsum(probs, dim=-1) - probs) < top_p)
        cdf = torch.cumsum(probs, dim=-1)
        uniform = torch.tensor([rngs[row].random() for row in rows], dtype=torch.float32, device=logits.device)[:, None]
        index = torch.searchsorted(cdf, uniform * cdf[:, -1:], right=True).clamp_(max=cdf.shape[-1] - 1)
        if order is not None:
            index = order.gather(-1, index)
        for row, token in zip(rows, index[:, 0].tolist()):
            tokens[row] = token
    return tokens


@dataclass
class SampleJob:
    """One sequence to sample: what a completion request asks for (one per choice when n > 1)."""

    prompt_ids: List[int]
    max_tokens: int
    temperature: float = 1.0
    top_p: float = 1.0
    stop_ids: Sequence[int] = ()
    seed: Optional[int] = None


def generate(
    policy: Policy,
    prompt_ids: Sequence[int],
    max_tokens: int,
    temperature: float = 1.0,
    top_p: float = 1.0,
    stop_ids: Sequence[int] = (),
    seed: Optional[int] = None,
) -> Completion:
    """Samples up to `max_tokens` tokens after `prompt_ids`. A stop token ends the completion and is
    part of it (the model must learn to emit it); finish reason "stop", else "length"."""
    return generate_batch(policy, [SampleJob(list(prompt_ids), max_tokens, temperature, top_p, stop_ids, seed)])[0]


def generate_batch(policy: Policy, jobs: Sequence[SampleJob], logprobs: str = "teacher-forced") -> List[Completion]:
    """Samples every job, decoding all unfinished ones with one batched forward per token (a
    running batch that all join at once; see running_batch.py for what agrees with what)."""
    from .running_batch import RunningBatch, evaluating  # it builds on this module's sampling

    with evaluating(policy):
        batch = RunningBatch(policy, logprobs)
        seqs, _ = batch.admit(jobs)
        while len(batch):
            batch.step()
    return [seq.completion() for seq in seqs]


@torch.no_grad()
def batch_completion_logprobs(policy: Policy, prompts: Sequence[Sequence[int]], completions: Sequence[Sequence[int]]) -> List[List[float]]:
    """Teacher-forced logprobs of each completion after its prompt, right-padded in groups through
    `batch_logprobs` as the trainer batches samples. A group of one is exactly `completion_logprobs`."""
    results: List[List[float]] = [[] for _ in prompts]
    rows = [i for i, completion in enumerate(completions) if completion]
    lengths = [len(prompts[i]) + len(completions[i]) for i in rows]
    for group in token_groups(lengths):
        width = max(lengths[g] for g in group)
        ids = torch.full((len(group), width), policy.tokenizer.pad_id, dtype=torch.long)
        select = torch.zeros_like(ids, dtype=torch.bool)
        attention = torch.zeros_like(ids)
        for row, g in enumerate(group):
            i = rows[g]
            ids[row, : lengths[g]] = torch.tensor(list(prompts[i]) + list(completions[i]))
            select[row, len(prompts[i]) : lengths[g]] = True
            attention[row, : lengths[g]] = 1
        device = policy.device
        flat, _ = batch_logprobs(policy, ids.to(device), select.to(device), attention_mask=attention.to(device))
        values = [float(x) for x in flat.cpu()]
        start = 0
        for g in group:
            i = rows[g]
            results[i] = values[start : start + len(completions[i])]
            start += len(completions[i])
    return results


@torch.no_grad()
def completion_logprobs(policy: Policy, prompt_ids: Sequence[int], completion_ids: Sequence[int], chunk_size: Optional[int] = None) -> List[float]:
    """Teacher-forced fp32 logprobs of `completion_ids` after `prompt_ids`, via the trainer's code path."""
    if not completion_ids:
        return []
    ids = torch.tensor([list(prompt_ids) + list(completion_ids)], device=policy.device)
    select = torch.zeros_like(ids, dtype=torch.bool)
    select[0, len(prompt_ids) :] = True
    kwargs = {} if chunk_size is None else {"chunk_size": chunk_size}
    logprobs, _ = batch_logprobs(policy, ids, select, **kwargs)
    return [float(x) for x in logprobs.cpu()]
