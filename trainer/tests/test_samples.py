import json

import pytest

from conftest import make_sample
from ssr_trainer.samples import SampleError, parse_jsonl, parse_sample

GOOD = make_sample([1, 2, 3], [0, 1, 1], [0, -0.5, -0.25], sample_id="ok")


def test_round_trips_the_wire_format():
    sample = parse_sample(GOOD)
    assert sample.tokens.loss_tokens == 2 and sample.tokens.logprobs == [None, -0.5, -0.25]
    assert sample.to_json() == GOOD


def with_change(path, value):
    sample = json.loads(json.dumps(GOOD))
    target = sample
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return sample


@pytest.mark.parametrize("path, value, message", [
    (["role"], "critic", "'role' must be 'injector' or 'solver'"),
    (["policyVersion"], -1, "'policyVersion' must be an integer >= 0"),
    (["policyVersion"], 1.5, "'policyVersion' must be an integer"),
    (["advantage"], None, "'advantage' must be a finite number"),
    (["masked"], 0, "'masked' must be a boolean"),
    (["groupId"], KeyError, "missing field 'groupId'"),
    (["tokens", "lossMask"], [0, 1], "differ in length"),
    (["tokens", "lossMask"], [0, 2, 1], "lossMask[1] must be 0 or 1"),
    (["tokens", "logprobs"], [None, None, -1.0], "logprobs[1] must be a number where lossMask is 1"),
    (["tokens", "ids"], [1, -2, 3], "ids[1] must be a non-negative integer"),
    (["tokens", "lossMask"], [1, 1, 1], "lossMask[0] is 1"),
])
def test_rejects_samples_that_break_the_contract(path, value, message):
    with pytest.raises(SampleError) as error:
        parse_sample(with_change(path, value))
    assert message in str(error.value) and "(ok)" in str(error.value)


def test_parses_jsonl_with_line_numbers_in_errors():
    text = json.dumps(GOOD) + "\n\n" + json.dumps(GOOD)
    assert len(parse_jsonl(text)) == 2
    with pytest.raises(SampleError, match="v3.jsonl:2: not JSON"):
        parse_jsonl(json.dumps(GOOD) + "\n{oops", "v3.jsonl")


def test_a_masked_sample_may_lack_logprobs():
    sample = with_change(["tokens", "logprobs"], [None, None, -1.0])
    sample["masked"] = True
    assert parse_sample(sample).tokens.logprobs == [None, None, -1.0]


def test_sampling_settings_round_trip_and_raw_logprobs_must_be_the_models_distribution():
    wire = make_sample([1, 2, 3], [0, 1, 1], [0.0, -0.5, -0.7])
    wire["sampling"] = {"temperature": 0.6, "topP": 0.95, "topK": 20, "logprobs": "processed"}
    sample = parse_sample(wire)
    assert sample.sampling.processed and sample.sampling.top_k == 20
    assert parse_sample(sample.to_json()).sampling == sample.sampling
    assert parse_sample(make_sample([1, 2], [0, 1], [0.0, -0.1])).sampling is None
    wire["sampling"] = {"temperature": 0.6, "topP": 1, "topK": -1, "logprobs": "raw"}
    with pytest.raises(SampleError, match="temperature 0.6.*raw logprobs"):
        parse_sample(wire)
    wire["sampling"] = {"temperature": 1, "topP": 1, "topK": 0, "logprobs": "raw"}
    with pytest.raises(SampleError, match="sampling.topK"):
        parse_sample(wire)
