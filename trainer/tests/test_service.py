"""The policy service over real HTTP on 127.0.0.1, started through its CLI as ssr would start it."""

import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from conftest import TRAINER_DIR
from ssr_trainer.models import TinyPolicy
from ssr_trainer.service import PolicyService, make_server
from ssr_trainer.tiny_model import TinyConfig
from ssr_trainer.train import TrainConfig, Trainer

TINY = json.dumps({"d_model": 32, "n_layers": 2, "n_heads": 2, "d_ff": 64, "max_seq_len": 4096})


def call(base, path, body=None, content_type="application/json"):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def start(args, tmp_path):
    env = dict(os.environ, PYTHONPATH=TRAINER_DIR)
    process = subprocess.Popen([sys.executable, "-m", "ssr_trainer.service", *args, "--port", "0", "--host", "127.0.0.1", "--threads", "1",
                                "--output-dir", str(tmp_path / "ckpt")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise AssertionError(f"the service did not start: {line}{process.stdout.read()}")
    return process, line.strip().rsplit(" ", 1)[-1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("service")
    process, base = start(["--model", "tiny", "--model-config", TINY, "--lr", "0.01"], tmp)
    yield base, tmp
    process.terminate()
    process.wait(timeout=10)


def sample_from(prompt, choice, version, advantage, sample_id):
    """What ssr's tokens policy + buildTokenTrajectory make of one sampled turn."""
    return {"id": sample_id, "role": "solver", "groupId": "bug-1", "episodeId": sample_id, "bugId": "bug-1", "policyVersion": version,
            "reward": advantage, "advantage": advantage, "finishReason": "submitted", "masked": False, "maskReason": None, "messages": None,
            "tokens": {"ids": prompt + choice["token_ids"], "lossMask": [0] * len(prompt) + [1] * len(choice["token_ids"]),
                       "logprobs": [None] * len(prompt) + choice["logprobs"]["token_logprobs"]}}


def test_tokenize_sample_train_and_sample_again(server):
    base, tmp = server
    status, models = call(base, "/v1/models")
    assert status == 200 and models["data"][0]["id"] == "tiny" and models["data"][0]["max_model_len"] == 4096
    model = models["data"][0]["id"]
    messages = [{"role": "system", "content": "You fix bugs."}, {"role": "user", "content": "Tests fail."}]
    status, tokenized = call(base, "/tokenize", {"model": model, "messages": messages, "add_generation_prompt": True})
    assert status == 200 and tokenized["count"] == len(tokenized["tokens"]) and tokenized["max_model_len"] == 4096
    prompt = tokenized["tokens"]

    samples = []
    for seed, advantage in ((1, 1.0), (2, -1.0)):
        # The body ssr's TokensPolicy sends.
        body = {"model": model, "prompt": prompt, "max_tokens": 16, "temperature": 1.0, "seed": seed, "logprobs": 1,
                "return_tokens_as_token_ids": True, "skip_special_tokens": False}
        status, completion = call(base, "/v1/completions", body)
        assert status == 200 and completion["policy_version"] == 0
        choice = completion["choices"][0]
        assert len(choice["token_ids"]) == len(choice["logprobs"]["token_logprobs"]) >= 1
        assert choice["finish_reason"] in ("stop", "length")
        assert all(t.startswith("token_id:") for t in choice["logprobs"]["tokens"])
        assert completion["usage"]["prompt_tokens"] == len(prompt)
        samples.append(sample_from(prompt, choice, completion["policy_version"], advantage, f"s{seed}"))

    status, step = call(base, "/train/step", {"samples": samples})
    assert status == 200, step
    assert step["version"] == 1 and step["metrics"]["samples"]["trained"] == 2
    assert step["metrics"]["mean_ratio"] == pytest.approx(1.0, abs=1e-5)
    assert set(step["metrics"]["roles"]) == {"injector", "solver"}

    status, completion = call(base, "/v1/completions", {"prompt": prompt, "max_tokens": 4, "seed": 1})
    assert status == 200 and completion["policy_version"] == 1
    status, health = call(base, "/health")
    assert health["policy_version"] == 1

    # The samples of the next step may come as the JSONL file ssr wrote.
    jsonl = "\n".join(json.dumps(s) for s in samples).encode()
    status, step = call(base, "/train/step", jsonl, content_type="application/x-ndjson")
    assert status == 200 and step["version"] == 2

    status, saved = call(base, "/weights/save", {})
    assert status == 200 and saved["version"] == 2 and saved["kind"] == "full"
    assert saved["path"].endswith(os.path.join("ckpt", "v2"))
    assert json.load(open(os.path.join(saved["path"], "manifest.json")))["version"] == 2


def test_a_saved_checkpoint_serves_again_at_its_version(server, tmp_path):
    base, _ = server
    status, saved = call(base, "/weights/save", {"path": str(tmp_path / "snap")})
    assert status == 200
    process, second = start(["--model", saved["path"]], tmp_path)
    try:
        prompt = [256, 258, 65, 259]
        status, completion = call(second, "/v1/completions", {"prompt": prompt, "max_tokens": 5, "seed": 3, "temperature": 0})
        _, original = call(base, "/v1/completions", {"prompt": prompt, "max_tokens": 5, "seed": 3, "temperature": 0})
        assert completion["policy_version"] == saved["version"]
        assert completion["choices"][0]["token_ids"] == original["choices"][0]["token_ids"]
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("path, body, status, message", [
    ("/v1/completions", {"prompt": [1, 2], "max_tokens": 5000}, 400, "maximum context length is 4096"),
    ("/v1/completions", {"prompt": [], "max_tokens": 1}, 400, "'prompt' must be"),
    ("/v1/completions", {"prompt": [99999]}, 400, "token ids in [0, 261)"),
    ("/v1/completions", {"prompt": [1], "top_p": 0}, 400, "'top_p'"),
    ("/v1/completions", {"prompt": [1], "top_k": 20}, 400, "'top_k' 20 is not supported"),
    ("/v1/completions", {"prompt": [1], "top_k": 0}, 400, "send -1 or leave it out"),
    ("/v1/completions", {"prompt": [1], "top_k": True}, 400, "'top_k' true is not supported"),
    ("/v1/completions", {"model": "gpt-9", "prompt": [1]}, 404, "`gpt-9` does not exist"),
    ("/tokenize", {"messages": "hi"}, 400, "'messages' must be a non-empty array"),
    ("/train/step", {"samples": [{"id": "x"}]}, 400, "missing field 'role'"),
    ("/train/step", {"samples": [], "expected_version": 99}, 409, "expected_version 99"),
    ("/train/step", {"samples": [], "config": {"lr_max": 1}}, 400, "unknown config field 'lr_max'"),
    ("/nowhere", {}, 404, "no route POST /nowhere"),
    ("/tokenize", b"{not json", 400, "not JSON"),
])
def test_bad_requests_get_clear_errors(server, path, body, status, message):
    base, _ = server
    got, payload = call(base, path, body)
    assert got == status and message in payload["error"]["message"], payload


def test_with_shared_weights_sampling_and_training_never_overlap():
    policy = TinyPolicy(TinyConfig(d_model=32, n_layers=1, n_heads=2, d_ff=64))
    trainer = Trainer(policy, TrainConfig(lr=1e-3, warmup_steps=0))
    service = PolicyService(policy, trainer, sampling_weights="shared")
    active, overlaps, calls = {"n": 0}, [], {"n": 0}
    lock = threading.Lock()

    def tracked(fn):
        def wrapper(*args, **kwargs):
            with lock:
                calls["n"] += 1
                active["n"] += 1
                if active["n"] > 1:
                    overlaps.append(fn.__name__)
            try:
                time.sleep(0.001)
                return fn(*args, **kwargs)
            finally:
                with lock:
                    active["n"] -= 1
        return wrapper

    policy.prefill = tracked(policy.prefill)
    policy.decode_batch = tracked(policy.decode_batch)
    trainer.accumulate = tracked(trainer.accumulate)
    server = make_server(service, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    prompt = [256, 258, 72, 259, 258]
    _, first = call(base, "/v1/completions", {"prompt": prompt, "max_tokens": 6, "seed": 0})
    sample = sample_from(prompt, first["choices"][0], 0, 1.0, "a")
    results = []

    def sample_many():
        for seed in range(6):
            results.append(call(base, "/v1/completions", {"prompt": prompt, "max_tokens": 6, "seed": seed})[1]["policy_version"])

    def train_some():
        for i in range(3):
            call(base, "/train/step", {"samples": [dict(sample, id=f"a{i}")]})

    threads = [threading.Thread(target=sample_many), threading.Thread(target=train_some)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    server.shutdown()
    assert calls["n"] > 6  # sampling did go through the tracked functions
    assert overlaps == []
    assert results == sorted(results) and trainer.version == 3


def test_a_stop_token_is_in_token_ids_but_not_in_the_text():
    policy = TinyPolicy(TinyConfig(d_model=32, n_layers=1, n_heads=2, d_ff=64))
    service = PolicyService(policy, Trainer(policy, TrainConfig()))
    everything = list(range(policy.tokenizer.vocab_size))
    choice = service.completions({"prompt": [256, 65], "max_tokens": 5, "seed": 1, "stop_token_ids": everything})["choices"][0]
    assert choice["finish_reason"] == "stop" and len(choice["token_ids"]) == 1
    assert choice["stop_reason"] == choice["token_ids"][0] and choice["text"] == ""
    assert len(choice["logprobs"]["token_logprobs"]) == 1


def test_chat_completions_answer_with_text():
    policy = TinyPolicy(TinyConfig(d_model=32, n_layers=1, n_heads=2, d_ff=64))
    service = PolicyService(policy, Trainer(policy, TrainConfig()), output_dir="unused")
    response = service.chat_completions({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 4, "seed": 2})
    assert response["choices"][0]["message"]["role"] == "assistant"
    assert isinstance(response["choices"][0]["message"]["content"], str)
    assert response["policy_version"] == 0 and response["usage"]["completion_tokens"] >= 1


def test_neutral_sampling_parameters_are_accepted_and_others_refused(server):
    """ssr's tokens mode sends every penalty at its neutral value; a value the service would not apply is refused, never ignored."""
    base, _ = server
    neutral = {"prompt": [1, 2], "max_tokens": 2, "seed": 3, "repetition_penalty": 1, "presence_penalty": 0, "frequency_penalty": 0.0,
               "min_p": 0, "top_k": -1, "logit_bias": {}}
    status, answer = call(base, "/v1/completions", neutral)
    assert status == 200 and len(answer["choices"][0]["token_ids"]) == 2, answer
    for key, value in [("repetition_penalty", 1.05), ("presence_penalty", 0.5), ("frequency_penalty", -0.1), ("min_p", 0.05), ("logit_bias", {"5": 10})]:
        status, payload = call(base, "/v1/completions", {**neutral, key: value})
        assert status == 400 and f"'{key}'" in payload["error"]["message"] and "not supported" in payload["error"]["message"], (key, payload)


def test_logprobs_of_a_continuation_match_what_sampling_returned(server):
    """POST /logprobs scores a continuation with the served weights: the sampled tokens' own log-probs come back."""
    base, _ = server
    status, sampled = call(base, "/v1/completions", {"prompt": [5, 6, 7], "max_tokens": 6, "seed": 1, "ignore_eos": True})
    assert status == 200
    choice = sampled["choices"][0]
    status, scored = call(base, "/logprobs", {"prompt": [5, 6, 7], "continuation": choice["token_ids"]})
    assert status == 200 and scored["policy_version"] == sampled["policy_version"] and scored["continuation"] == choice["token_ids"]
    assert max(abs(a - b) for a, b in zip(scored["logprobs"], choice["logprobs"]["token_logprobs"])) < 1e-4
    status, payload = call(base, "/logprobs", {"prompt": [5], "continuation": []})
    assert status == 400 and "'continuation' must be a non-empty array" in payload["error"]["message"]
