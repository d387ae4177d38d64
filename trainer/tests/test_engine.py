"""Continuous batching (engine.py) and prefix reuse (prefix_cache.py): concurrent requests share
decode forwards, join and leave the running batch at any step, reuse the KV cache of an earlier
turn, and still get what a lone request gets (same token ids; logprobs within 1e-5)."""

import threading
import time

import pytest
import torch

from ssr_trainer.models import TinyPolicy
from ssr_trainer.prefix_cache import PrefixCache, common_prefix
from ssr_trainer.sampling import generate
from ssr_trainer.service import PolicyService
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import TrainConfig, Trainer

#: logprobs batched vs alone, and from the decode logits vs the teacher-forced pass (fp32: ~1e-6 measured)
TOLERANCE = 1e-5


def service_for(policy, **kwargs):
    return PolicyService(policy, Trainer(policy, TrainConfig()), **kwargs)


def bodies():
    """Unlike prompts and settings: some stop early, one greedy, one nucleus, one with two choices."""
    return [
        {"prompt": [256, 258, 65, 66, 259], "max_tokens": 20, "seed": 1},
        {"prompt": [256] + list(b"a longer prompt, so the rows are padded"), "max_tokens": 25, "seed": 2, "top_k": -1},
        {"prompt": [256, 70], "max_tokens": 12, "temperature": 0.7, "top_p": 0.9, "seed": 3},
        {"prompt": [256, 71, 72], "max_tokens": 9, "temperature": 0.0, "seed": 4},
        {"prompt": [256, 73], "max_tokens": 15, "seed": 5, "stop_token_ids": list(range(0, 261, 3))},
        {"prompt": [256, 74, 75], "max_tokens": 10, "seed": 6, "n": 2},
        {"prompt": [256, 76], "max_tokens": 0, "seed": 7},
    ]


def ask_all(service, requests):
    answers = [None] * len(requests)
    threads = [threading.Thread(target=lambda i=i: answers.__setitem__(i, service.completions(requests[i]))) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def assert_same(answer, alone):
    assert [c["token_ids"] for c in answer["choices"]] == [c["token_ids"] for c in alone["choices"]]
    assert [c["finish_reason"] for c in answer["choices"]] == [c["finish_reason"] for c in alone["choices"]]
    for a, b in zip(answer["choices"], alone["choices"]):
        assert a["logprobs"]["token_logprobs"] == pytest.approx(b["logprobs"]["token_logprobs"], abs=TOLERANCE)


def test_concurrent_requests_share_forwards_and_get_what_a_lone_request_gets(tiny_policy):
    requests = bodies()
    batched = service_for(tiny_policy, batch_window_ms=300, prefix_cache_mb=0)
    batched.engine._expected = 8  # as after a session of 8: the window gathers them into one batch
    answers = ask_all(batched, requests)
    stats = batched.engine.stats
    assert stats["requests"] == len(requests) and stats["sequences"] == len(requests) + 1
    assert stats["largest_batch"] >= 6 and stats["batches"] <= 25  # one forward per step for all rows, not one per row
    lone = service_for(tiny_policy, prefix_cache_mb=0)
    for body, answer in zip(requests, answers):
        assert_same(answer, lone.completions(body))
    lengths = [len(a["choices"][0]["token_ids"]) for a in answers]
    assert lengths[-1] == 0 and len(set(lengths)) > 2 and answers[4]["choices"][0]["finish_reason"] == "stop"
    # The teacher-forced pass (the trainer's code, `generate`) agrees with the decode logprobs.
    for body, answer in zip(requests[:5], answers):
        completion = generate(tiny_policy, body["prompt"], body["max_tokens"], body.get("temperature", 1.0), body.get("top_p", 1.0),
                              tiny_policy.tokenizer.stop_ids + body.get("stop_token_ids", []), body["seed"])
        assert completion.token_ids == answer["choices"][0]["token_ids"]
        assert completion.logprobs == pytest.approx(answer["choices"][0]["logprobs"]["token_logprobs"], abs=TOLERANCE)


def slowed(service, seconds):
    """Each decode forward of the served weights takes at least `seconds` (to act while one runs)."""
    policy = service.served.policy
    real = policy.decode_batch

    def slow(*args):
        time.sleep(seconds)
        return real(*args)

    policy.decode_batch = slow


def test_a_request_joins_the_running_batch_and_leaves_before_a_longer_one_ends(tiny_policy):
    service = service_for(tiny_policy, prefix_cache_mb=0)
    slowed(service, 0.005)
    long_body = {"prompt": [256, 65], "max_tokens": 120, "seed": 1, "ignore_eos": True}
    short_body = {"prompt": [256, 66, 67], "max_tokens": 4, "seed": 2, "ignore_eos": True}
    done = {}

    def ask(name, body):
        done[name] = (service.completions(body), time.monotonic())

    long_thread = threading.Thread(target=ask, args=("long", long_body))
    long_thread.start()
    time.sleep(0.1)  # the long one is decoding (120 forwards of >= 5 ms)
    ask("short", short_body)
    long_thread.join()
    assert done["short"][1] < done["long"][1] - 0.1  # answered while the long one still ran
    assert service.engine.stats["largest_batch"] == 2 and service.engine.stats["batches"] < 120 + 4
    lone = service_for(tiny_policy, prefix_cache_mb=0)
    assert_same(done["long"][0], lone.completions(long_body))
    assert_same(done["short"][0], lone.completions(short_body))


def test_the_next_turn_prefills_only_its_new_tokens_and_samples_the_same(tiny_policy):
    cached, plain = service_for(tiny_policy), service_for(tiny_policy, prefix_cache_mb=0)
    prompt = [256, 258] + list(b"the system prompt and the task's text") + [259, 258]
    first = cached.completions({"prompt": prompt, "max_tokens": 30, "seed": 1, "ignore_eos": True})
    reply = first["choices"][0]["token_ids"]
    turn2 = prompt + reply + [259, 10, 258] + list(b"tool output")
    second = cached.completions({"prompt": turn2, "max_tokens": 30, "seed": 2})
    stats = cached.engine.prefixes.stats()
    assert stats["hits"] == 1 and stats["reused_tokens"] == len(prompt) + len(reply) - 1
    assert stats["prefilled_tokens"] == len(prompt) + (len(turn2) - len(prompt) - len(reply) + 1)
    assert stats["entries"] == 1  # turn 1's entry is a prefix of turn 2's: dropped
    assert_same(second, plain.completions({"prompt": turn2, "max_tokens": 30, "seed": 2}))
    # A sibling with the same prompt reuses all of it but its last token.
    cached.completions({"prompt": turn2, "max_tokens": 5, "seed": 3})
    assert cached.engine.prefixes.stats()["reused_tokens"] == stats["reused_tokens"] + len(turn2) - 1


def test_new_weights_empty_the_prefix_cache_and_wait_for_running_sequences(tiny_policy):
    service = service_for(tiny_policy)
    slowed(service, 0.005)
    body = {"prompt": [256, 65, 66], "max_tokens": 60, "seed": 1, "ignore_eos": True}
    answers = {}
    thread = threading.Thread(target=lambda: answers.__setitem__("running", service.completions(body)))
    thread.start()
    time.sleep(0.05)
    with service.lock:
        service.served.publish(service.policy, 1)  # waits for the running sequence: it stays version 0
    thread.join()
    assert answers["running"]["policy_version"] == 0
    after = service.completions(body)
    assert after["policy_version"] == 1 and service.engine.prefixes.stats()["hits"] == 0


def test_a_failing_forward_fails_its_requests_and_the_next_ones_run(tiny_policy):
    service = service_for(tiny_policy)
    policy = service.served.policy
    real = policy.decode_batch
    policy.decode_batch = lambda *args: (_ for _ in ()).throw(RuntimeError("out of memory"))
    with pytest.raises(RuntimeError, match="out of memory"):
        service.completions({"prompt": [256, 65], "max_tokens": 5, "seed": 1})
    policy.decode_batch = real
    assert len(service.completions({"prompt": [256, 65], "max_tokens": 5, "seed": 1})["choices"][0]["token_ids"]) == 5


def test_a_request_with_more_choices_than_max_batch_runs_whole(tiny_policy):
    service = service_for(tiny_policy, max_batch=2)
    answer = service.completions({"prompt": [256, 65], "max_tokens": 4, "seed": 1, "n": 3})
    assert [c["index"] for c in answer["choices"]] == [0, 1, 2]


def test_the_prefix_cache_is_bounded_and_evicts_the_least_recently_used():
    policy = TinyPolicy(TinyConfig(d_model=8, n_layers=1, n_heads=1, d_ff=16))
    entry = lambda n: [(torch.zeros(1, 1, n, 8), torch.zeros(1, 1, n, 8))]  # 64 bytes a token
    cache = PrefixCache(policy, max_bytes=64 * 250)
    cache.reset(0)
    cache.store([1] * 100, entry(100))
    cache.store([2] * 100, entry(100))
    assert cache.lookup([1] * 100 + [5]).length == 100  # [1]*100 is now the most recently used
    cache.store([3] * 100, entry(100))  # 300 tokens do not fit in 250: [2]*100 goes
    assert cache.lookup([2] * 100 + [5]) is None and cache.lookup([3] * 40).length == 39
    assert cache.stats()["entries"] == 2 and cache.stats()["bytes"] == 64 * 200
    assert cache.lookup([3] * 20 + [4] * 20) is None  # 20 shared tokens: too few to reuse
    cache.store([9] * 300, entry(300))  # larger than the whole cache: not kept
    assert cache.stats()["entries"] == 2
    cache.reset(1)
    assert cache.stats()["entries"] == 0 and cache.lookup([1] * 101) is None


def test_common_prefix():
    assert common_prefix((1, 2, 3), (1, 2, 3, 4)) == 3
    assert common_prefix((1, 2, 3, 4), (1, 2, 9, 4)) == 2
    assert common_prefix((5,), (1,)) == 0 and common_prefix((), (1,)) == 0
