"""Batched sampling: the same seeded results batched and alone, and (with a copy of the weights)
sampling that goes on while a step trains. The engine (continuous batching): test_engine.py."""

import threading

import pytest
import torch

from conftest import sampled
from ssr_trainer.models import TinyPolicy
from ssr_trainer.sampling import SampleJob, generate, generate_batch
from ssr_trainer.service import PolicyService
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import TrainConfig, Trainer


def jobs_for(tok):
    """Prompts of different lengths and settings, some stopping early, one asking for nothing."""
    return [
        SampleJob([256, 258, 65, 66, 259], 20, seed=1, stop_ids=tok.stop_ids),
        SampleJob([256] + list(b"a longer prompt, so the rows are padded"), 25, seed=2, stop_ids=tok.stop_ids),
        SampleJob([256, 70], 12, temperature=0.7, top_p=0.9, seed=3),
        SampleJob([256, 71, 72], 9, temperature=0.0, seed=4),
        SampleJob([256, 73], 15, seed=5, stop_ids=list(range(0, 261, 3))),  # stops within a few tokens
        SampleJob([256, 74], 0, seed=6),
    ]


def test_seeded_jobs_give_the_same_completion_batched_and_alone(tiny_policy):
    jobs = jobs_for(tiny_policy.tokenizer)
    batched = generate_batch(tiny_policy, jobs)
    alone = [generate_batch(tiny_policy, [job])[0] for job in jobs]
    assert [c.token_ids for c in batched] == [c.token_ids for c in alone]
    for b, a in zip(batched, alone):  # padded teacher-forced passes: equal to float rounding
        assert b.logprobs == pytest.approx(a.logprobs, abs=1e-5)
    assert [c.finish_reason for c in batched] == [c.finish_reason for c in alone]
    lengths = [len(c.token_ids) for c in batched]
    assert lengths[0] > 0 and lengths[-1] == 0 and len(set(lengths)) > 2  # rows really finished at different steps
    assert batched[4].finish_reason == "stop"
    # Reversed order: a job's result does not depend on its row either.
    assert [c.token_ids for c in generate_batch(tiny_policy, jobs[::-1])][::-1] == [c.token_ids for c in batched]


def test_batched_decoding_gives_each_rows_own_logits():
    policy = TinyPolicy(TinyConfig(d_model=32, n_heads=2, d_ff=64, seed=2))
    prompts = [[256, 1, 2, 3, 4, 5, 6], [256, 9], [256, 7, 7, 7]]
    with torch.no_grad():
        prefills = [policy.decode_step(torch.tensor([p]), None) for p in prompts]
        state = policy.batch_cache([cache for _, cache in prefills])
        batch_logits, state = policy.decode_batch([11, 12, 13], state)
        state = policy.select_rows(state, [0, 2])  # row 1 finished
        batch_logits2, _ = policy.decode_batch([21, 23], state)
        for row, (prompt, token, token2) in enumerate(zip(prompts, [11, 12, 13], [21, None, 23])):
            alone, cache = policy.decode_step(torch.tensor([prompt + [token]]), None)
            assert torch.allclose(batch_logits[row], alone[0], atol=1e-5)
            if token2 is not None:
                alone2, _ = policy.decode_step(torch.tensor([[token2]]), cache)
                assert torch.allclose(batch_logits2[[0, None, 1][row]], alone2[0], atol=1e-5)


def test_rows_that_join_leave_and_outgrow_the_preallocated_cache_keep_their_own_logits(monkeypatch):
    from ssr_trainer import tiny_batch

    monkeypatch.setattr(tiny_batch, "DECODE_ROOM", 1)  # the buffers fill up every few steps: reallocated on the way
    policy = TinyPolicy(TinyConfig(d_model=32, n_heads=2, d_ff=64, seed=2))
    prompts = {"a": [256, 1, 2], "b": [256, 7], "c": [256] + [9] * 14}  # c joins later, longer than the running rows
    sequences = {name: list(prompt) for name, prompt in prompts.items()}
    with torch.no_grad():
        alone = lambda ids: policy.decode_step(torch.tensor([ids]), None)
        running = ["a", "b"]
        state = policy.batch_cache([alone(sequences[name][:-1])[1] for name in running])
        kept, first_capacity = None, state.capacity
        for step in range(14):
            if step == 3:  # c joins: the rows already running are moved right to make room on the left
                running.append("c")
                state = policy.join_cache(state, [alone(sequences["c"][:-1])[1]])
            if step == 6:  # a leaves; the view of its cache taken before stays what it was
                kept = policy.split_cache(state)[running.index("a")]
                state = policy.select_rows(state, [i for i, name in enumerate(running) if name != "a"])
                running.remove("a")
                kept_ids = list(sequences["a"][:-1])
            logits, state = policy.decode_batch([sequences[name][-1] for name in running], state)
            for row, name in enumerate(running):
                assert torch.allclose(logits[row], alone(sequences[name])[0][0], atol=1e-5), (step, name)
                sequences[name].append(10 + step + row)
        for (k, v), (k_alone, v_alone) in zip(kept, alone(kept_ids)[1]):
            assert torch.allclose(k, k_alone, atol=1e-6) and torch.allclose(v, v_alone, atol=1e-6)
        assert state.capacity > first_capacity + 14  # it did grow


def test_prompts_are_prefilled_together_in_groups_of_bounded_size(tiny_policy):
    from ssr_trainer.tiny_batch import token_groups

    assert token_groups([10, 10, 10], budget=30) == [[0, 1, 2]]
    assert token_groups([10, 20, 9, 40, 18], budget=40) == [[3], [1, 4], [0, 2]]  # the token budget
    assert token_groups([100, 95, 50, 48, 10], budget=1000) == [[0, 1], [2, 3], [4]]  # the padding bound
    prompts = [[256] + [65 + i] * (30 + i) for i in range(4)]
    with torch.no_grad():
        logits, caches = tiny_policy.prefill(prompts)
        for prompt, row, cache in zip(prompts, logits, caches):
            alone, alone_cache = tiny_policy.decode_step(torch.tensor([prompt]), None)
            assert torch.allclose(row, alone[0], atol=1e-5)
            assert [k.shape for k, _ in cache] == [k.shape for k, _ in alone_cache]


def test_generate_alone_keeps_the_ratio_at_exactly_one(tiny_policy):
    sample = sampled(tiny_policy, "fix it", max_tokens=10, seed=3)
    completion = generate(tiny_policy, sample["tokens"]["ids"][: sample["tokens"]["lossMask"].index(1)], 10, seed=3,
                          stop_ids=tiny_policy.tokenizer.stop_ids)
    assert completion.logprobs == [lp for lp, m in zip(sample["tokens"]["logprobs"], sample["tokens"]["lossMask"]) if m]


def test_with_a_copy_of_the_weights_sampling_goes_on_during_a_step_and_then_serves_the_new_version():
    policy = TinyPolicy(TinyConfig(d_model=32, n_layers=1, n_heads=2, d_ff=64))
    trainer = Trainer(policy, TrainConfig(lr=1e-2, warmup_steps=0))
    service = PolicyService(policy, trainer, batch_window_ms=0)
    prompt = [256, 258, 72, 259, 258]
    first = service.completions({"prompt": prompt, "max_tokens": 6, "seed": 0})
    ids, choice = prompt + first["choices"][0]["token_ids"], first["choices"][0]
    sample = {"id": "a", "role": "solver", "groupId": "g", "episodeId": "e", "bugId": None, "policyVersion": 0, "reward": 1.0,
              "advantage": 1.0, "finishReason": "submitted", "masked": False, "maskReason": None, "messages": None,
              "tokens": {"ids": ids, "lossMask": [0] * len(prompt) + [1] * len(choice["token_ids"]),
                         "logprobs": [None] * len(prompt) + choice["logprobs"]["token_logprobs"]}}
    inside, release = threading.Event(), threading.Event()
    real_step = trainer.step

    def slow_step(*args, **kwargs):
        inside.set()
        assert release.wait(30)
        return real_step(*args, **kwargs)

    trainer.step = slow_step
    stepping = threading.Thread(target=lambda: service.train_step({"samples": [sample]}))
    stepping.start()
    assert inside.wait(30)
    during = service.completions({"prompt": prompt, "max_tokens": 6, "seed": 0})  # the step is still running
    release.set()
    stepping.join()
    assert during["policy_version"] == 0 and during["choices"][0]["logprobs"] == choice["logprobs"]
    after = service.completions({"prompt": prompt, "max_tokens": 6, "seed": 0})
    assert after["policy_version"] == 1 and service.health()["policy_version"] == 1
    assert after["choices"][0]["logprobs"] != choice["logprobs"]  # the new weights are served
    for served, trained in zip(service.served.policy.module.parameters(), policy.module.parameters()):
        assert torch.equal(served, trained)
