"""The transformers path (torch 2.x + transformers + peft). Debian's python3-torch has no
transformers, so this file skips itself there; `trainer/run-tests` then runs it again in the
environment `trainer/hf-env` builds from a local package index (or use
`PYTHON=/path/to/venv/bin/python trainer/run-tests`)."""

import json

import pytest
import torch

transformers = pytest.importorskip("transformers")

from conftest import sampled  # noqa: E402
from ssr_trainer.checkpoint import CheckpointError, save_checkpoint  # noqa: E402
from ssr_trainer.resume import load_checkpoint  # noqa: E402
from ssr_trainer.models import HFPolicy, batch_logprobs, load_policy  # noqa: E402
from ssr_trainer.train import TrainConfig, Trainer  # noqa: E402

QWEN2 = json.dumps({"model_type": "qwen2", "vocab_size": 320, "hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2,
                    "num_attention_heads": 4, "num_key_value_heads": 2, "max_position_embeddings": 2048, "tie_word_embeddings": False})


@pytest.fixture
def hf_policy():
    torch.manual_seed(0)
    policy, version = load_policy("hf-config", model_config=QWEN2, device="cpu")
    assert isinstance(policy, HFPolicy) and version == 0 and policy.hidden_mode
    return policy


def test_ratio_is_exactly_one_at_equal_versions(hf_policy):
    sample = sampled(hf_policy, "fix it", max_tokens=10, seed=3)
    ids = torch.tensor([sample["tokens"]["ids"]])
    select = torch.tensor([sample["tokens"]["lossMask"]], dtype=torch.bool)
    with torch.no_grad():
        logprobs, _ = batch_logprobs(hf_policy, ids, select)
    sampler = [lp for lp in sample["tokens"]["logprobs"] if lp is not None]
    assert logprobs.tolist() == sampler


def test_chunked_head_equals_the_models_own_logits(hf_policy):
    ids = torch.randint(0, 320, (2, 17))
    select = torch.ones_like(ids, dtype=torch.bool)
    with torch.no_grad():
        chunked, _ = batch_logprobs(hf_policy, ids, select, chunk_size=5)
        logits = hf_policy.module(input_ids=ids).logits.float()
    full = torch.log_softmax(logits[:, :-1], -1).gather(-1, ids[:, 1:, None]).squeeze(-1).flatten()
    assert torch.allclose(chunked, full, atol=1e-5)


def test_a_step_moves_logprobs_the_right_way(hf_policy):
    good = sampled(hf_policy, "t", seed=1, advantage=1.0, sample_id="good")
    bad = sampled(hf_policy, "t", seed=2, advantage=-1.0, sample_id="bad")

    def total(sample):
        ids = torch.tensor([sample["tokens"]["ids"]])
        with torch.no_grad():
            return float(batch_logprobs(hf_policy, ids, torch.tensor([sample["tokens"]["lossMask"]], dtype=torch.bool))[0].sum())

    before = total(good), total(bad)
    trainer = Trainer(hf_policy, TrainConfig(lr=1e-3, warmup_steps=0))
    for _ in range(3):
        metrics = trainer.step([good, bad])
    assert total(good) > before[0] and total(bad) < before[1]
    assert metrics["version"] == 3


def test_lora_trains_only_the_adapter_and_saves_it(tmp_path):
    pytest.importorskip("peft")
    policy, _ = load_policy("hf-config", model_config=QWEN2, device="cpu", lora=True, lora_rank=4)
    names = [n for n, p in policy.module.named_parameters() if p.requires_grad]
    assert names and all("lora_" in n for n in names)
    frozen = {n: p.detach().clone() for n, p in policy.module.named_parameters() if not p.requires_grad}
    Trainer(policy, TrainConfig(lr=1e-2, warmup_steps=0)).step([sampled(policy, "t", seed=1, advantage=1.0), sampled(policy, "t", seed=2, advantage=-1.0)])
    assert all(torch.equal(p, frozen[n]) for n, p in policy.module.named_parameters() if n in frozen)
    assert policy.save(str(tmp_path / "adapter")) == "lora"
    assert (tmp_path / "adapter" / "adapter_config.json").exists()


def test_gradient_checkpointing_with_lora_trains_in_train_mode_without_dropout():
    pytest.importorskip("peft")
    config = json.loads(QWEN2)
    config["attention_dropout"] = 0.5  # must be switched off: the sampler's logprobs have none
    policy, _ = load_policy("hf-config", model_config=json.dumps(config), device="cpu", lora=True, lora_rank=4, gradient_checkpointing=True)
    trainer = Trainer(policy, TrainConfig(lr=1e-2, warmup_steps=0))
    assert trainer.train_mode
    metrics = trainer.step([sampled(policy, "t", seed=1, advantage=1.0), sampled(policy, "t", seed=2, advantage=-1.0)])
    assert metrics["grad_norm"] > 0
    assert metrics["mean_ratio"] == pytest.approx(1.0, abs=1e-5)


def seeded_policy(seed, lora=False, lora_rank=4):
    torch.manual_seed(seed)  # the LoRA init; hf-config's weights are the same whatever the seed
    return load_policy("hf-config", model_config=QWEN2, device="cpu", lora=lora, lora_rank=lora_rank)[0]


@pytest.mark.parametrize("lora", [False, True], ids=["full", "lora"])
def test_a_resumed_trainer_ends_where_an_uninterrupted_one_does(tmp_path, lora):
    if lora:
        pytest.importorskip("peft")
    config = TrainConfig(lr=1e-3, warmup_steps=3)
    source = seeded_policy(0, lora)
    batches = [[sampled(source, "t", seed=2 * i, advantage=1.0, sample_id=f"a{i}"), sampled(source, "t", seed=2 * i + 1, advantage=-1.0, sample_id=f"b{i}")]
               for i in range(3)]
    whole = seeded_policy(0, lora)
    whole_trainer = Trainer(whole, config)
    expected = [whole_trainer.step(batch)["version"] for batch in batches]
    first = seeded_policy(0, lora)
    first_trainer = Trainer(first, config)
    first_trainer.step(batches[0])
    assert save_checkpoint(first, first_trainer, str(tmp_path / "v1"))["model"]["weights"] == ("lora" if lora else "full")
    resumed = seeded_policy(7, lora)  # other LoRA init values: the adapter comes from the checkpoint
    trainer = Trainer(resumed, config)
    load_checkpoint(str(tmp_path / "v1"), resumed, trainer)
    assert [trainer.step(batch)["version"] for batch in batches[1:]] == expected[1:] == [2, 3]
    for (name, a), b in zip(resumed.module.named_parameters(), whole.module.parameters()):
        assert torch.allclose(a, b, rtol=0, atol=1e-6), name
    for p, q in zip(trainer.params, whole_trainer.params):
        assert torch.allclose(trainer.optimizer.state[p]["exp_avg"], whole_trainer.optimizer.state[q]["exp_avg"], rtol=0, atol=1e-7)


def test_a_checkpoint_of_another_lora_rank_or_of_full_weights_is_refused(tmp_path):
    pytest.importorskip("peft")
    policy = seeded_policy(0, lora=True, lora_rank=4)
    save_checkpoint(policy, Trainer(policy), str(tmp_path / "v0"))
    other_rank = seeded_policy(0, lora=True, lora_rank=8)
    with pytest.raises(CheckpointError, match="config.lora_rank: checkpoint 4, this service 8"):
        load_checkpoint(str(tmp_path / "v0"), other_rank, Trainer(other_rank))
    full = seeded_policy(0)
    with pytest.raises(CheckpointError, match='weights: checkpoint "lora", this service "full"'):
        load_checkpoint(str(tmp_path / "v0"), full, Trainer(full))
    other_base = seeded_policy(0, lora=True, lora_rank=4)
    with torch.no_grad():
        next(p for p in other_base.module.parameters() if not p.requires_grad).add_(0.01)  # same architecture, other values
    with pytest.raises(CheckpointError, match="frozen base weights: this service's base model is not the one the adapter was trained on"):
        load_checkpoint(str(tmp_path / "v0"), other_base, Trainer(other_base))


def test_a_bf16_base_trains_lora_adapters_kept_in_fp32():
    pytest.importorskip("peft")
    policy, _ = load_policy("hf-config", model_config=QWEN2, device="cpu", dtype="bfloat16", lora=True, lora_rank=4)
    trained = [p for p in policy.module.parameters() if p.requires_grad]
    frozen = [p for p in policy.module.parameters() if not p.requires_grad]
    assert trained and all(p.dtype == torch.float32 for p in trained)
    assert frozen and all(p.dtype == torch.bfloat16 for p in frozen)
    trainer = Trainer(policy, TrainConfig(lr=1e-3, warmup_steps=0))
    assert not trainer.precision.enabled  # fp32 adapters are their own masters: no copy
    before = [p.detach().clone() for p in trained]
    metrics = trainer.step([sampled(policy, "t", seed=1, advantage=1.0), sampled(policy, "t", seed=2, advantage=-1.0)])
    assert metrics["updated"] and any(not torch.equal(a, b) for a, b in zip(before, trained))


def test_fp16_full_fine_tuning_uses_fp32_masters_and_torchs_loss_scaler():
    policy, _ = load_policy("hf-config", model_config=QWEN2, device="cpu", dtype="float16")
    trainer = Trainer(policy, TrainConfig(lr=1e-5, warmup_steps=0))
    assert trainer.precision.enabled and trainer.precision.scaler is not None
    samples = [sampled(policy, "t", seed=1, advantage=1.0), sampled(policy, "t", seed=2, advantage=-1.0)]
    before = [p.detach().clone() for p in trainer.params]
    metrics = trainer.step(samples)
    assert metrics["updated"] and metrics["grad_norm"] > 0
    changed = sum(int((a != b).sum()) for a, b in zip(before, trainer.params)) / sum(a.numel() for a in before)
    assert changed > 0.5  # fp16's spacing would swallow most 1e-5 updates; the masters keep them
    model = policy.trainable_parameters()
    assert all(p.dtype == torch.float16 and torch.equal(p, m.half()) for p, m in zip(model, trainer.params))
    # An overflowing step is skipped by the scaler: nothing changes and it does not count as a step.
    trainer.precision.scaler.update(new_scale=2.0 ** 100)  # fp16 gradients overflow at this scale
    kept = [p.detach().clone() for p in trainer.params]
    skipped = trainer.step([dict(s, policyVersion=trainer.version) for s in samples])
    assert not skipped["updated"] and trainer.steps == 1 and trainer.version == 2
    assert all(torch.equal(a, b) for a, b in zip(kept, trainer.params))


def test_ids_past_the_byte_tokenizer_that_the_model_samples_are_scored_and_taken_as_prompts(hf_policy):
    """hf-config with the byte tokenizer (261 ids) on a model of 320: sampling draws any of the 320, so
    /logprobs (ssr's sampler check) and a prompt holding them (the next turn) must take them too."""
    from ssr_trainer.policy_service import PolicyService

    service = PolicyService(hf_policy, Trainer(hf_policy, TrainConfig()))  # its engine thread is a daemon
    assert hf_policy.tokenizer.vocab_size == 261 and hf_policy.vocab_size == 320
    scored = service.logprobs({"prompt": [1, 2, 300], "continuation": [5, 319]})
    assert len(scored["logprobs"]) == 2 and all(value < 0 for value in scored["logprobs"])
    assert len(service.completions({"prompt": [1, 300], "max_tokens": 2, "seed": 1, "ignore_eos": True})["choices"][0]["token_ids"]) == 2
