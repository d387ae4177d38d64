import random

import pytest
import torch

from conftest import sampled
from ssr_trainer.loss import policy_loss_terms
from ssr_trainer.models import TinyPolicy, batch_logprobs
from ssr_trainer.samples import parse_sample
from ssr_trainer.sampling import generate, sample_next, sample_rows
from ssr_trainer.service import PolicyService
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import TrainConfig, Trainer, collate


def trainer_ratios(trainer, samples):
    """The ratio terms the trainer's loss sees for these samples, computed as a step computes them."""
    config = trainer.config
    batch = [parse_sample(s) for s in samples]
    ids, attention, select, sampler, advantages = collate(batch, trainer.policy.tokenizer.pad_id, trainer.policy.device)
    with torch.no_grad():
        logprobs, _ = batch_logprobs(trainer.policy, ids, select, config.loss.logprob_chunk, False, attention)
        _, diagnostics = policy_loss_terms(logprobs, sampler, advantages, config.loss)
    return diagnostics


@pytest.mark.parametrize("logprobs", ["teacher-forced", "decode"])
def test_ratio_is_one_at_equal_versions(tiny_policy, logprobs):
    """Sample through the service, then compute the loss terms on that sample: same weights; with
    teacher-forced logprobs the same code too (ratio exactly 1), from the decode logits within 1e-5."""
    trainer = Trainer(tiny_policy, TrainConfig())
    service = PolicyService(tiny_policy, trainer, logprobs=logprobs)
    prompt = service.tokenize({"messages": [{"role": "user", "content": "repair it"}], "add_generation_prompt": True})["tokens"]
    response = service.completions({"prompt": prompt, "max_tokens": 24, "seed": 7, "logprobs": 1})
    choice = response["choices"][0]
    assert response["policy_version"] == trainer.version == 0
    ids = prompt + choice["token_ids"]
    sample = {
        "id": "s", "role": "solver", "groupId": "g", "episodeId": "e", "bugId": None, "policyVersion": response["policy_version"],
        "reward": 1.0, "advantage": 1.0, "finishReason": "submitted", "masked": False, "maskReason": None, "messages": None,
        "tokens": {"ids": ids, "lossMask": [0] * len(prompt) + [1] * len(choice["token_ids"]),
                   "logprobs": [None] * len(prompt) + choice["logprobs"]["token_logprobs"]},
    }
    diagnostics = trainer_ratios(trainer, [sample])
    assert diagnostics["ratio"].numel() == len(choice["token_ids"])
    if logprobs == "teacher-forced":
        assert torch.equal(diagnostics["ratio"], torch.ones_like(diagnostics["ratio"]))
        assert torch.equal(diagnostics["kl"], torch.zeros_like(diagnostics["kl"]))
    else:
        assert torch.allclose(diagnostics["ratio"], torch.ones_like(diagnostics["ratio"]), rtol=0, atol=1e-5)
        assert not torch.equal(diagnostics["ratio"], torch.ones_like(diagnostics["ratio"]))  # really the other source


def test_ratio_is_one_in_a_padded_batch(tiny_policy):
    trainer = Trainer(tiny_policy, TrainConfig())
    samples = [sampled(tiny_policy, "p" * n, max_tokens=m, seed=n) for n, m in ((1, 5), (9, 17), (30, 3))]
    ratio = trainer_ratios(trainer, samples)["ratio"]
    assert torch.allclose(ratio, torch.ones_like(ratio), atol=1e-5)


def test_the_kv_cache_gives_the_full_forward_logits():
    policy = TinyPolicy(TinyConfig(d_model=32, n_heads=2, d_ff=64, attn_chunk=4))
    ids = torch.randint(0, 256, (1, 11))
    with torch.no_grad():
        full = policy.head(policy.hidden(ids, torch.ones_like(ids)))[0]
        logits, cache = policy.decode_step(ids[:, :6], None)
        steps = [logits[0]]
        for t in range(6, 11):
            logits, cache = policy.decode_step(ids[:, t : t + 1], cache)
            steps.append(logits[0])
    assert torch.allclose(torch.stack(steps), full[5:], atol=1e-5)


def test_chunked_attention_equals_unchunked_with_the_same_gradient():
    ids = torch.randint(0, 256, (2, 23))
    results = []
    for chunk in (4, 64):
        policy = TinyPolicy(TinyConfig(d_model=32, n_heads=2, d_ff=64, attn_chunk=chunk, seed=3))
        select = torch.ones_like(ids, dtype=torch.bool)
        logprobs, _ = batch_logprobs(policy, ids, select)
        logprobs.sum().backward()
        results.append((logprobs.detach(), policy.module.blocks[0].qkv.weight.grad.clone()))
    assert torch.allclose(results[0][0], results[1][0], atol=1e-5)
    assert torch.allclose(results[0][1], results[1][1], atol=1e-5)


def test_seeded_sampling_is_reproducible_and_stops_on_a_stop_token(tiny_policy):
    prompt = [256, 1, 2, 3]
    a = generate(tiny_policy, prompt, 30, seed=5, stop_ids=tiny_policy.tokenizer.stop_ids)
    b = generate(tiny_policy, prompt, 30, seed=5, stop_ids=tiny_policy.tokenizer.stop_ids)
    assert a.token_ids == b.token_ids and a.logprobs == b.logprobs
    everything = list(range(tiny_policy.tokenizer.vocab_size))
    stopped = generate(tiny_policy, prompt, 30, seed=5, stop_ids=everything)
    assert stopped.finish_reason == "stop" and len(stopped.token_ids) == 1
    assert generate(tiny_policy, prompt, 3, seed=5).finish_reason == "length"


def test_greedy_and_top_p_sampling():
    logits = torch.tensor([0.0, 3.0, 2.9, -5.0])
    assert sample_next(logits, 0.0, 1.0, None) == 1
    rng = random.Random(0)
    drawn = {sample_next(logits, 1.0, 0.9, rng) for _ in range(50)}
    assert drawn == {1, 2}  # token 3 and 0 lie outside the nucleus
    counts = [0] * 4
    for _ in range(4000):
        counts[sample_next(logits, 1.0, 1.0, rng)] += 1
    expected = torch.softmax(logits, -1) * 4000
    assert all(abs(c - e) < 5 * max(1.0, float(e)) ** 0.5 for c, e in zip(counts, expected))  # the distribution itself


def test_rows_sample_with_their_own_settings_whatever_is_beside_them():
    logits = torch.randn(6, 50, generator=torch.Generator().manual_seed(1)) * 3
    settings = [(1.0, 1.0), (0.0, 1.0), (0.7, 0.9), (1.3, 0.5), (1.0, 1.0), (0.5, 1.0)]
    batched = sample_rows(logits, [t for t, _ in settings], [p for _, p in settings], [random.Random(row) for row in range(6)])
    for row, (t, p) in enumerate(settings):
        assert sample_rows(logits[row : row + 1], [t], [p], [random.Random(row)]) == [batched[row]]
    assert batched[1] == int(logits[1].argmax())


def test_byte_chat_template_extends_by_the_sampled_reply():
    """prompt + a reply ending in <|im_end|> + the next messages == the template of the longer chat."""
    tok = TinyPolicy(TinyConfig(d_model=32, n_heads=2, d_ff=64)).tokenizer
    first = [{"role": "system", "content": "sys"}, {"role": "user", "content": "héllo"}]
    prompt = tok.apply_chat_template(first, add_generation_prompt=True)
    reply = tok.encode("done") + [tok.im_end_id]
    longer = first + [{"role": "assistant", "content": "done"}, {"role": "tool", "content": "ok", "tool_call_id": "c"}]
    full = tok.apply_chat_template(longer, add_generation_prompt=True)
    assert full[: len(prompt) + len(reply)] == prompt + reply
    assert tok.decode(full, skip_special_tokens=False).startswith("<|bos|><|im_start|>system\nsys<|im_end|>")
    assert "héllo" in tok.decode(full)


def test_byte_chat_template_renders_tools_and_tool_calls():
    tok = TinyPolicy(TinyConfig(d_model=32, n_heads=2, d_ff=64)).tokenizer
    tools = [{"type": "function", "function": {"name": "bash", "description": "run", "parameters": {}}}]
    call = {"id": "c0", "type": "function", "function": {"name": "bash", "arguments": "{\"cmd\": \"ls\"}"}}
    text = tok.decode(tok.apply_chat_template([{"role": "user", "content": "u"}, {"role": "assistant", "content": "", "tool_calls": [call]}], tools=tools))
    assert "# Tools" in text and '"name":"bash"' in text
    assert '<tool_call>{"name": "bash", "arguments": {"cmd": "ls"}}</tool_call>' in text
