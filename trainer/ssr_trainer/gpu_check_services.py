"""gpu_check.py's `sync` phase: a trainer service and a sampler service (two processes, as a run
with `--sampler-sync ssr` has them), one step, one sync, and ssr's sampler check after it.

The check mirrors src/training/verify-sampler.ts (its probe text, 16 sampled tokens, every
penalty sent neutral, mean |sampler - trainer| log-prob <= 0.05), so a GPU run measures what a
real run would accept or refuse.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any, Dict, List, Optional, Tuple

#: src/training/verify-sampler.ts's PROBE_TEXT, PROBE_TOKENS and DEFAULT_PROBE_TOLERANCE
PROBE_TEXT = "ssr sampler check: the cat sat on the mat, the cat sat on the mat, the cat sat on the"
PROBE_TOKENS = 16
PROBE_TOLERANCE = 0.05
#: the one step's learning rate (AdamW's first step moves every weight by about lr): large enough that
#: the sampler's old weights fail the check, so the check is seen to tell versions apart
SYNC_LR = {"tiny": 1e-2, "hf-config": 1e-2}
NEUTRAL = {"temperature": 1.0, "top_p": 1.0, "top_k": -1, "repetition_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0, "min_p": 0.0}
TRAINER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def call(base: str, path: str, body: Optional[dict] = None, timeout: float = 300.0) -> Tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def ok(base: str, path: str, body: Optional[dict] = None) -> Any:
    status, answer = call(base, path, body)
    if status != 200:
        raise RuntimeError(f"POST {base}{path}: HTTP {status}: {json.dumps(answer)[:500]}")
    return answer


def spawn_service(flags: Dict[str, Any], device: str, output_dir: str, log_path: str, *extra: str) -> subprocess.Popen:
    """`python -m ssr_trainer.service` with the model flags (its output in `log_path`). In this process's
    group: trainer/gpu-check's `timeout` signals the whole group, so a hard stop ends the services too."""
    command = [sys.executable, "-m", "ssr_trainer.service", "--model", flags["model"], "--model-config", flags["model_config"],
               "--dtype", flags["dtype"], "--device", device, "--port", "0", "--output-dir", output_dir, *extra]
    env = dict(os.environ, PYTHONPATH=TRAINER_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""), PYTHONUNBUFFERED="1")
    with open(log_path, "w") as log:
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)


def service_url(process: subprocess.Popen, log_path: str, deadline: float) -> str:
    """The URL the service's start line names, once it serves (both services build their model at once)."""
    while time.monotonic() < deadline and process.poll() is None:
        with open(log_path) as handle:
            lines = [line for line in handle if line.startswith("ssr-trainer: serving")]
        if lines:
            return lines[0].strip().rsplit(" ", 1)[-1]
        time.sleep(0.2)
    with open(log_path) as handle:
        raise RuntimeError(f"the service ({' '.join(process.args)}) did not start (exit status {process.poll()}): {handle.read()[-2000:]}")


def stop_service(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def probe(sampler: str, trainer: str) -> Dict[str, Any]:
    """verify-sampler.ts's check: the sampler samples after the probe prompt, the trainer scores."""
    prompt = ok(trainer, "/tokenize", {"prompt": PROBE_TEXT})["tokens"]
    sampled = ok(sampler, "/v1/completions", dict(NEUTRAL, prompt=prompt, max_tokens=PROBE_TOKENS, seed=7, logprobs=1, ignore_eos=True))
    choice = sampled["choices"][0]
    scored = ok(trainer, "/logprobs", {"prompt": prompt, "continuation": choice["token_ids"]})
    diffs = [abs(a - b) for a, b in zip(scored["logprobs"], choice["logprobs"]["token_logprobs"])]
    mean = sum(diffs) / len(diffs)
    return {"sampler_version": sampled["policy_version"], "trainer_version": scored["policy_version"], "tokens": len(diffs),
            "mean_diff": mean, "max_diff": max(diffs), "passes": mean <= PROBE_TOLERANCE}


def group_samples(trainer: str) -> List[dict]:
    """Four completions of one prompt sampled by the trainer, as ssr's training samples, advantages +1.5, +0.5, -0.5, -1.5."""
    prompt = ok(trainer, "/tokenize", {"messages": [{"role": "user", "content": "fix the failing test"}]})["tokens"]
    answer = ok(trainer, "/v1/completions", dict(NEUTRAL, prompt=prompt, max_tokens=24, n=4, seed=3, logprobs=1, ignore_eos=True))
    samples = []
    for index, choice in enumerate(answer["choices"]):
        ids, logprobs = choice["token_ids"], choice["logprobs"]["token_logprobs"]
        samples.append({"id": f"gpu-check-{index}", "role": "solver", "groupId": "g", "episodeId": f"e{index}", "bugId": "b",
                        "policyVersion": answer["policy_version"], "reward": 1.0 - index / 3, "advantage": 1.5 - index, "finishReason": "submitted",
                        "masked": False, "maskReason": None, "messages": None,
                        "tokens": {"ids": prompt + ids, "lossMask": [0] * len(prompt) + [1] * len(ids), "logprobs": [None] * len(prompt) + logprobs}})
    return samples


def sync_check(flags: Dict[str, Any], device: str, scratch: str, deadline: float) -> Dict[str, Any]:
    """The phase: its figures, or an `error` naming what failed (the services' logs are in `scratch`).
    A check that also passed before the sync is a `warning`: the step did not move the weights
    enough to show that the check tells the versions apart."""
    started = time.monotonic()
    lr = SYNC_LR[flags["model"]]
    services: List[subprocess.Popen] = []
    try:
        logs = {role: os.path.join(scratch, f"{role}.log") for role in ("trainer", "sampler")}
        services.append(spawn_service(flags, device, os.path.join(scratch, "trainer"), logs["trainer"], "--lr", str(lr), "--warmup-steps", "0"))
        services.append(spawn_service(flags, device, os.path.join(scratch, "sampler"), logs["sampler"]))
        trainer, sampler = (service_url(process, logs[role], deadline) for process, role in zip(services, ("trainer", "sampler")))
        up = time.monotonic() - started
        step = ok(trainer, "/train/step", {"samples": group_samples(trainer)})
        before = probe(sampler, trainer)  # the sampler still serves version 0: the check must refuse it
        began = time.monotonic()
        export = ok(trainer, "/weights/save", {"weights_only": True, "keep": 1})
        loaded = ok(sampler, "/update_weights_from_disk", {"model_path": export["path"], "load_format": "auto"})
        sync_seconds = time.monotonic() - began
        after = probe(sampler, trainer)
        health = ok(sampler, "/health")
        result = {"services_up_seconds": round(up, 1), "lr": lr,
                  "step": {key: step["metrics"].get(key) for key in ("version", "loss", "grad_norm", "seconds", "updated")},
                  "sync_seconds": round(sync_seconds, 2), "export_bytes": _bytes(export["path"]), "loaded_version": loaded["policy_version"],
                  "sampler_health_version": health["policy_version"], "probe_before_sync": before, "probe_after_sync": after}
        problems = []
        if health["policy_version"] != step["version"] or after["sampler_version"] != step["version"]:
            problems.append(f"the sampler serves version {health['policy_version']} after the sync, the trainer {step['version']}")
        if not after["passes"]:
            problems.append(f"after the sync the sampler's log-probs differ from the trainer's by {after['mean_diff']:.4f} on average (tolerance {PROBE_TOLERANCE})")
        if before["passes"]:
            result["warning"] = (f"before the sync the check passed too (mean {before['mean_diff']:.4f}): one step at lr {lr} did not move "
                                 "the weights enough to show that it tells the versions apart")
        if problems:
            result["error"] = "; ".join(problems)
        return result
    finally:
        for process in services:
            stop_service(process)


def _bytes(path: str) -> int:
    return sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(path) for name in names)
