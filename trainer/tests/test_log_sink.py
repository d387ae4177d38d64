"""The --log-to sink's input contract and its missing-package error (tensorboardX / wandb themselves
are exercised by test/unit/report/step-log.test.ts and test/integration/selfplay-logging.test.ts,
in trainer/log-env's environment: Debian ships neither)."""

import builtins
import io
import json

import pytest

from ssr_trainer import log_sink


@pytest.mark.parametrize(
    "line, expected",
    [
        ('{"step": 2, "scalars": {"a/b": 0.5, "n": 3}}', {"step": 2, "scalars": {"a/b": 0.5, "n": 3.0}}),
        ('{"step": 0, "scalars": {"x": NaN, "y": Infinity, "z": 1}}', {"step": 0, "scalars": {"z": 1.0}}),
        ("   \n", None),
    ],
)
def test_parse_line_keeps_finite_numbers(line, expected):
    assert log_sink.parse_line(line) == expected


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"scalars": {}}', "non-negative int"),
        ('{"step": -1, "scalars": {}}', "non-negative int"),
        ('{"step": 1, "scalars": {"a": "high"}}', "'a' of step 1 is not a number"),
        ('{"step": 1, "scalars": {"a": true}}', "'a' of step 1 is not a number"),
        ("[1, 2]", "non-negative int"),
        ("not json", "Expecting value"),
    ],
)
def test_parse_line_rejects_bad_lines(line, message):
    with pytest.raises(ValueError, match=message):
        log_sink.parse_line(line)


def _hide(monkeypatch, module):
    real = builtins.__import__

    def fake(name, *args, **kwargs):
        if name == module:
            raise ImportError(f"No module named '{module}'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)


@pytest.mark.parametrize("target, package", [("wandb", "wandb"), ("tensorboard", "tensorboardX")])
def test_a_missing_package_exits_3_with_the_pip_command_before_ready(monkeypatch, capsys, tmp_path, target, package):
    _hide(monkeypatch, package)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert log_sink.main(["--to", target, "--dir", str(tmp_path), "--name", "run"]) == log_sink.EXIT_MISSING_PACKAGE
    out, err = capsys.readouterr()
    assert "ready" not in out
    assert f"--log-to {target} needs the Python package {package}" in err
    assert f"-m pip install {package}" in err


def test_a_bad_line_stops_the_sink_with_exit_2_and_closes_its_writers(monkeypatch, capsys, tmp_path):
    closed = []

    class Recorder(log_sink.Sink):
        def __init__(self):
            self.logged = []

        def log(self, step, scalars):
            self.logged.append((step, scalars))

        def close(self):
            closed.append(self.logged)

    monkeypatch.setattr(log_sink, "open_sinks", lambda args: [Recorder()])
    monkeypatch.setattr("sys.stdin", io.StringIO('{"step": 1, "scalars": {"a": 1}}\n{"step": "x"}\n{"step": 3, "scalars": {}}\n'))
    assert log_sink.main(["--to", "tensorboard", "--dir", str(tmp_path), "--name", "run"]) == log_sink.EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert json.loads(out) == {"ready": True}
    assert "stdin line 2" in err
    assert closed == [[(1, {"a": 1.0})]]
