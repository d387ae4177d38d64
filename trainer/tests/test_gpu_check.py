"""trainer/gpu-check (gpu_check.py), the GPU run of issue 22 prepared for a lent GPU, run here on the
CPU with a tiny model, so that it cannot rot between GPU sessions: every phase, the summary files."""

import json
import os
import subprocess
import sys

import pytest

from conftest import TRAINER_DIR


def check(tmp_path, *flags, python=sys.executable):
    out = tmp_path / "out"
    env = dict(os.environ, PYTHON=python, OMP_NUM_THREADS="1")
    done = subprocess.run([os.path.join(TRAINER_DIR, "gpu-check"), *flags, "--out", str(out)], capture_output=True, text=True, env=env, timeout=400)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads((out / "gpu-check.json").read_text()), (out / "gpu-check.md").read_text()


def assert_bench(result, trained="bfloat16", masters="fp32"):
    assert result["weights_dtype"] == "bfloat16"
    assert result["precision"] == {"dtype": trained, "master_weights": masters, "loss_scale": None}
    for key in ("train_step", "plain_forward_backward"):
        assert result[key]["tokens_per_second"] > 0 and result[key]["mfu"] > 0
    assert result["peak_memory_bytes"] > 0


def assert_sync(sync):
    # One step, one sync: the sampler serves version 1, and ssr's check refuses it before the sync and passes it after.
    assert sync["loaded_version"] == sync["sampler_health_version"] == sync["probe_after_sync"]["sampler_version"] == 1
    assert sync["probe_before_sync"]["sampler_version"] == 0 and not sync["probe_before_sync"]["passes"]
    assert sync["probe_after_sync"]["passes"] and sync["probe_after_sync"]["tokens"] == 16
    assert "error" not in sync and "warning" not in sync


def test_the_tiny_run_measures_every_phase_and_writes_the_summary(tmp_path):
    summary, markdown = check(tmp_path, "--tiny")
    assert summary["finished"] and summary["mode"] == "tiny"
    assert_bench(summary["phases"]["bench-full"])
    assert "no LoRA" in summary["phases"]["bench-lora"]["skipped"]
    assert_sync(summary["phases"]["sync"])
    assert "| bench-full | 33,600 (33,600: bfloat16 + fp32 masters, on bfloat16 weights) |" in markdown and "after 0.0000" in markdown and "refused" in markdown


@pytest.mark.skipif(subprocess.run([sys.executable, "-c", "import transformers, peft"], capture_output=True).returncode != 0,
                    reason="needs transformers + peft (trainer/hf-env): PYTHON=$(trainer/hf-env) trainer/run-tests -k gpu_check")
def test_the_tiny_transformers_run_covers_lora_too(tmp_path):
    summary, _ = check(tmp_path, "--tiny-hf")
    assert_bench(summary["phases"]["bench-full"])
    lora = summary["phases"]["bench-lora"]
    assert_bench(lora, trained="float32", masters="none")  # LoRA's adapters are fp32 themselves, on the bf16 base
    assert lora["lora"] and lora["trainable_parameters"] < lora["parameters"]
    assert_sync(summary["phases"]["sync"])
