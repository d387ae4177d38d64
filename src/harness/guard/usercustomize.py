"""ssr's grading guard, start-up half: asks pytest to load the guard plugin, in pytest processes only.

The test driver puts this file on PYTHONPATH and in a user site of its own (PYTHONUSERBASE), both
outside /repo, so Python imports it at start-up even when a test script sets its own PYTHONPATH.
It adds "-p ssr_grading_guard" to PYTEST_ADDOPTS only in a process that is pytest itself: one that
can import the plugin (it sits beside this file). A process that cannot see this file (a venv
without the user site, `python -I`) is never asked to load a plugin it cannot import: its session
is just unguarded, never broken. The plugin takes the option out again when it is imported, so
child processes do not inherit it. Before that, in the same pytest processes, it installs the audit
hook (ssr_guard_audit.py), which takes the supervisor's socket: no repository code has run yet.
"""
import os
import sys

_PYTEST_NAMES = ("pytest", "py.test", "pytest-3")
# Interpreter options that take a separate value.
_WITH_VALUE = ("-X", "-W", "-Q")


def _is_pytest(argv):
    index = 1
    while index < len(argv):
        arg = argv[index]
        if arg == "-m":
            return index + 1 < len(argv) and argv[index + 1] in _PYTEST_NAMES
        if arg.startswith("-m") and len(arg) > 2:
            return arg[2:] in _PYTEST_NAMES
        if arg == "-c" or arg.startswith("-c"):
            return False
        if arg in _WITH_VALUE:
            index += 2
            continue
        if arg.startswith("-"):
            index += 1
            continue
        return os.path.basename(arg) in _PYTEST_NAMES
    return False


if os.environ.get("SSR_GUARD_CONF") and _is_pytest(list(getattr(sys, "orig_argv", None) or [])):
    # The audit hook first (ssr_guard_audit.py): from here on, nothing this process does goes unseen.
    import ssr_guard_audit

    if ssr_guard_audit.install():
        os.environ["PYTEST_ADDOPTS"] = ("-p ssr_grading_guard " + os.environ.get("PYTEST_ADDOPTS", "")).strip()
