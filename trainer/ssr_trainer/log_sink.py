"""Per-step scalars of an ssr run into TensorBoard and/or Weights & Biases.

ssr's engine is TypeScript and Node has no maintained TensorBoard writer, so `ssr selfplay
--log-to tensorboard|wandb` starts this process and writes one JSON object per line on its stdin:

    {"step": 3, "scalars": {"bugs/valid_rate": 0.5, ...}}

Both sinks are the maintained libraries themselves (tensorboardX's SummaryWriter, wandb in
offline mode unless WANDB_MODE says otherwise), never a hand-written file format. Once every
requested library is imported and its writer opened, one line `{"ready": true}` goes to stdout:
the engine waits for it, so a missing package stops the run before any episode, with the pip
command that fixes it (exit 3). EOF on stdin flushes and closes every writer (exit 0).

    python3 -m ssr_trainer.log_sink --to tensorboard --to wandb --dir RUN/logs --name RUN \
        [--project ssr] [--run-id ID] [--config-json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any, Dict, List, Optional

TARGETS = ("tensorboard", "wandb")
# The package each target imports, and the pip name that installs it.
PACKAGES = {"tensorboard": ("tensorboardX", "tensorboardX"), "wandb": ("wandb", "wandb")}
EXIT_MISSING_PACKAGE = 3
EXIT_BAD_INPUT = 2


class MissingPackage(Exception):
    """A sink's library is not importable by this interpreter."""


class Sink:
    def log(self, step: int, scalars: Dict[str, float]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


def _import(target: str) -> Any:
    module, pip_name = PACKAGES[target]
    try:
        return __import__(module)
    except ImportError as error:
        raise MissingPackage(
            f"--log-to {target} needs the Python package {pip_name} ({error}): "
            f"{sys.executable} -m pip install {pip_name}  (or point SSR_PYTHON at an interpreter that has it)"
        ) from error


class TensorBoardSink(Sink):
    """Event files under `<dir>/tensorboard/` (open them with `tensorboard --logdir <dir>/tensorboard`)."""

    def __init__(self, log_dir: str) -> None:
        tensorboardx = _import("tensorboard")
        self.writer = tensorboardx.SummaryWriter(logdir=os.path.join(log_dir, "tensorboard"))

    def log(self, step: int, scalars: Dict[str, float]) -> None:
        for name, value in scalars.items():
            self.writer.add_scalar(name, value, global_step=step)
        # A run may be killed at any step: what was logged must already be on disk.
        self.writer.flush()

    def close(self) -> None:
        self.writer.close()


class WandbSink(Sink):
    """A W&B run under `<dir>/wandb/` (offline by default: `wandb sync <dir>/wandb/offline-run-*` uploads it)."""

    def __init__(self, log_dir: str, name: str, project: str, run_id: Optional[str], config: Dict[str, Any]) -> None:
        # Offline unless the user asked for another mode: a run must never wait on a network.
        os.environ.setdefault("WANDB_MODE", "offline")
        wandb = _import("wandb")
        os.makedirs(log_dir, exist_ok=True)
        self.run = wandb.init(
            project=project, name=name, id=run_id, dir=log_dir, config=config, resume="allow" if run_id else None,
            mode=os.environ["WANDB_MODE"],
        )

    def log(self, step: int, scalars: Dict[str, float]) -> None:
        self.run.log(dict(scalars), step=step)

    def close(self) -> None:
        self.run.finish()


def parse_line(line: str) -> Optional[Dict[str, Any]]:
    """One input line as {"step": int, "scalars": {name: finite float}}; None for a blank line.
    Non-finite values are dropped: neither TensorBoard nor W&B plots them usefully."""
    if not line.strip():
        return None
    record = json.loads(line)
    step = record.get("step") if isinstance(record, dict) else None
    scalars = record.get("scalars") if isinstance(record, dict) else None
    if not isinstance(step, int) or step < 0 or not isinstance(scalars, dict):
        raise ValueError(f'expected {{"step": <non-negative int>, "scalars": {{...}}}}, got {line.strip()[:200]}')
    clean = {}
    for name, value in scalars.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"scalar {name!r} of step {step} is not a number: {value!r}")
        if math.isfinite(value):
            clean[str(name)] = float(value)
    return {"step": step, "scalars": clean}


def open_sinks(args: argparse.Namespace) -> List[Sink]:
    config: Dict[str, Any] = {}
    if args.config_json:
        with open(args.config_json, encoding="utf-8") as handle:
            config = json.load(handle)
    sinks: List[Sink] = []
    for target in dict.fromkeys(args.to):
        if target == "tensorboard":
            sinks.append(TensorBoardSink(args.dir))
        else:
            sinks.append(WandbSink(args.dir, args.name, args.project, args.run_id, config))
    return sinks


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m ssr_trainer.log_sink", description=__doc__.split("\n\n")[0])
    parser.add_argument("--to", action="append", choices=TARGETS, required=True, help="repeatable")
    parser.add_argument("--dir", required=True, help="log dir: tensorboard/ and wandb/ go under it")
    parser.add_argument("--name", required=True, help="the run's name")
    parser.add_argument("--project", default="ssr", help="W&B project")
    parser.add_argument("--run-id", default=None, help="W&B run id (the same id resumes the same run)")
    parser.add_argument("--config-json", default=None, help="a JSON object recorded as the W&B run config")
    args = parser.parse_args(argv)
    try:
        sinks = open_sinks(args)
    except MissingPackage as error:
        print(f"ssr log sink: {error}", file=sys.stderr, flush=True)
        return EXIT_MISSING_PACKAGE
    print(json.dumps({"ready": True}), flush=True)
    status = 0
    try:
        for number, line in enumerate(sys.stdin, start=1):
            try:
                record = parse_line(line)
            except ValueError as error:
                print(f"ssr log sink: stdin line {number}: {error}", file=sys.stderr, flush=True)
                status = EXIT_BAD_INPUT
                break
            if record is not None:
                for sink in sinks:
                    sink.log(record["step"], record["scalars"])
    finally:
        for sink in sinks:
            sink.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
