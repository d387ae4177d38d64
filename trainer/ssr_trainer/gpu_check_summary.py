"""gpu_check.py's summary: `gpu-check.json` (everything measured) and `gpu-check.md` (the figures
a note quotes), rewritten after every phase so that a hard stop keeps what was done."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional


def write_summary(summary: Dict[str, Any], out: Optional[str]) -> None:
    if not out:
        return
    os.makedirs(out, exist_ok=True)
    for name, text in (("gpu-check.json", json.dumps(summary, indent=1, default=str)), ("gpu-check.md", markdown(summary))):
        partial = os.path.join(out, f".{name}.partial")
        with open(partial, "w") as handle:
            handle.write(text + "\n")
        os.replace(partial, os.path.join(out, name))


def markdown(summary: Dict[str, Any]) -> str:
    phases = summary["phases"]
    lines = [f"# trainer/gpu-check ({summary['mode']})", "",
             f"{summary.get('gpu') or summary['device']}, torch {summary['torch']}; model {summary['model']['model']} "
             f"(`{_short(summary['model']['model_config'])}`), {summary['dtype']} with fp32 master weights; "
             f"batch {summary['batch']} x {summary['seq_len']} tokens, half of each trained. Peak assumed for MFU: {summary['peak_assumed']}.", ""]
    lines += ["| phase | parameters (trained) | RL step tokens/s | MFU | plain fwd+bwd tokens/s | MFU | step / plain time | peak memory |",
              "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name in ("bench-full", "bench-lora"):
        lines.append(_bench_row(name, phases.get(name)))
    lines.append("")
    lines += _sync_lines(phases.get("sync"))
    status = "finished" if summary.get("finished") else summary.get("stopped", "did not finish")
    lines += ["", f"{status}; {summary.get('seconds', '?')} s in all."]
    return "\n".join(lines)


def _bench_row(name: str, result: Optional[Dict[str, Any]]) -> str:
    if not result or "train_step" not in result:
        return f"| {name} | {_why(result)} | | | | | | |"
    step, plain = result["train_step"], result["plain_forward_backward"]
    trained = result["precision"]
    how = f"{trained['dtype']} + fp32 masters" if trained["master_weights"] == "fp32" else f"{trained['dtype']} (no masters)"
    return (f"| {name} | {result['parameters']:,} ({result['trainable_parameters']:,}: {how}, on {result['weights_dtype']} weights) | {step['tokens_per_second']:,.0f} | {step['mfu']:.1%} "
            f"| {plain['tokens_per_second']:,.0f} | {plain['mfu']:.1%} | {result['step_over_plain_time']:.2f}x | {result['peak_memory_bytes'] / 2**30:.2f} GiB |")


def _sync_lines(result: Optional[Dict[str, Any]]) -> List[str]:
    if not result or "probe_after_sync" not in result:
        return [f"Two-service sync: {_why(result)}"]
    before, after = result["probe_before_sync"], result["probe_after_sync"]
    lines = [f"Two-service sync (trainer + sampler service): services up in {result['services_up_seconds']} s; one step "
             f"at lr {result['lr']} ({result['step']['seconds']:.2f} s); export {result['export_bytes'] / 2**20:.1f} MiB saved and "
             f"loaded in {result['sync_seconds']} s; the sampler then serves version {result['sampler_health_version']}.",
             f"Sampler check ({after['tokens']} tokens, tolerance 0.05): before the sync mean |diff| {before['mean_diff']:.4f} "
             f"({'passes' if before['passes'] else 'refused'}), after {after['mean_diff']:.4f} (max {after['max_diff']:.4f}, "
             f"{'passes' if after['passes'] else 'refused'})."]
    if "warning" in result:
        lines.append(f"Warning: {result['warning']}")
    if "error" in result:
        lines.append(f"FAILED: {result['error']}")
    return lines


def _why(result: Optional[Dict[str, Any]]) -> str:
    if not result:
        return "not run"
    return result.get("skipped") or result.get("interrupted") or f"FAILED: {result.get('error')}"


def _short(config: str) -> str:
    return os.path.basename(config) if not config.lstrip().startswith("{") else config[:60] + ("..." if len(config) > 60 else "")
