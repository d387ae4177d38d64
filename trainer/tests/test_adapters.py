import pytest
import torch

from conftest import make_sample
from ssr_trainer.adapters.skyrl import to_generator_output, to_skyrl
from ssr_trainer.adapters.trl_grpo import MATCHING_GRPO_CONFIG, offline_grpo_trainer, to_grpo_batch, to_tensors
from ssr_trainer.advantages import compute_advantages

# Two turns: prompt (3) | reply (2, trained) | tool output (2) | reply (1, trained)
MULTI_TURN = make_sample([1, 2, 3, 10, 11, 20, 21, 12], [0, 0, 0, 1, 1, 0, 0, 1], [0, 0, 0, -0.1, -0.2, 0, 0, -0.3],
                         advantage=0.5, reward=1.0, group="bug-1", sample_id="a")
SHORT = make_sample([1, 2, 13], [0, 0, 1], [0, 0, -0.4], advantage=-0.5, reward=-1.0, group="bug-1", sample_id="b")
INJECTOR = make_sample([1, 5, 6], [0, 1, 1], [0, -1.0, -2.0], advantage=0.0, role="injector", group="bug-1", sample_id="c")
MASKED = make_sample([1, 2], [0, 1], [0, -0.5], masked=True, sample_id="d")
STALE = make_sample([1, 2], [0, 1], [0, -0.5], version=0, sample_id="e")


def test_skyrl_generator_output_field_mapping():
    out = to_generator_output([MULTI_TURN, SHORT, INJECTOR, MASKED])
    assert out["prompt_token_ids"] == [[1, 2, 3], [1, 2], [1]]
    assert out["response_ids"] == [[10, 11, 20, 21, 12], [13], [5, 6]]
    assert out["loss_masks"] == [[1, 1, 0, 0, 1], [1], [1, 1]]
    assert out["rollout_logprobs"] == [[-0.1, -0.2, 0.0, 0.0, -0.3], [-0.4], [-1.0, -2.0]]
    assert out["rewards"] == [1.0, -1.0, 0.0]
    assert out["stop_reasons"] == ["submitted"] * 3
    # Groups are per role: the injector's "bug-1" is not the solver's.
    assert out["trajectory_ids"] == [{"instance_id": "solver:bug-1", "repetition_id": 0}, {"instance_id": "solver:bug-1", "repetition_id": 1},
                                     {"instance_id": "injector:bug-1", "repetition_id": 0}]
    assert out["rollout_metrics"] == {"ssr/dropped_masked": 1}
    assert out["ssr"]["advantages"] == [0.5, -0.5, 0.0]
    # SkyRL recomputing RLOO from the rewards of a group gives ssr's advantages.
    assert compute_advantages(out["rewards"][:2], "rloo") == [2.0, -2.0]


def test_adapters_drop_stale_samples_when_given_the_current_version():
    fresh = dict(SHORT, policyVersion=1)  # 8 behind: kept
    assert to_generator_output([STALE, fresh], current_version=9)["rollout_metrics"] == {"ssr/dropped_stale": 1}
    batch = to_grpo_batch([STALE, fresh], pad_token_id=0, current_version=9)
    assert batch["ssr"]["dropped"] == {"stale": 1} and batch["ssr"]["ids"] == ["b"]


def test_to_skyrl_needs_skyrl_installed():
    with pytest.raises(ImportError):
        to_skyrl(to_generator_output([SHORT]))


def test_trl_grpo_batch_field_mapping():
    batch = to_grpo_batch([MULTI_TURN, SHORT, MASKED], pad_token_id=99)
    assert batch["prompt_ids"] == [[1, 2, 3], [99, 1, 2]]  # left-padded like TRL's prompts
    assert batch["prompt_mask"] == [[1, 1, 1], [0, 1, 1]]
    assert batch["completion_ids"] == [[10, 11, 20, 21, 12], [13, 99, 99, 99, 99]]
    assert batch["completion_mask"] == [[1, 1, 1, 1, 1], [1, 0, 0, 0, 0]]
    assert batch["tool_mask"] == [[1, 1, 0, 0, 1], [1, 1, 1, 1, 1]]
    assert batch["advantages"] == [0.5, -0.5]
    assert batch["old_per_token_logps"][0] == [-0.1, -0.2, 0.0, 0.0, -0.3]
    assert batch["sampling_per_token_logps"] == batch["old_per_token_logps"]
    assert batch["num_items_in_batch"] == 4
    assert batch["ssr"]["dropped"] == {"masked": 1}
    tensors = to_tensors(batch)
    assert tensors["completion_ids"].dtype == torch.long and tensors["advantages"].dtype == torch.float32
    assert int((tensors["completion_mask"] * tensors["tool_mask"]).sum()) == 4


def test_offline_grpo_trainer_replays_queued_batches():
    class FakeGRPOTrainer:  # stands in for trl.GRPOTrainer, which is not installed here
        def __init__(self, *args, **kwargs):
            self.kwargs = kwargs

    cls = offline_grpo_trainer(FakeGRPOTrainer)
    trainer = cls(args=MATCHING_GRPO_CONFIG)
    batch = to_tensors(to_grpo_batch([SHORT], pad_token_id=0))
    trainer.ssr_queue.append(batch)
    assert trainer._generate_and_score_completions([{"prompt": "ignored"}]) is batch
    with pytest.raises(RuntimeError, match="no ssr batch queued"):
        trainer._generate_and_score_completions([])
    assert MATCHING_GRPO_CONFIG["epsilon_high"] == 0.28 and MATCHING_GRPO_CONFIG["delta"] == 3.0
