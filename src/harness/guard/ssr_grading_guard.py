"""ssr's grading guard: a pytest plugin that records what the runner itself saw.

The test driver ships this file into the sandbox outside /repo; usercustomize.py beside it adds
"-p ssr_grading_guard" to PYTEST_ADDOPTS in pytest processes, so it is imported while pytest
parses its arguments: before any conftest.py or repository code runs in this process.

What it does, and why (method §4: grading measures the code, not how the tests are run):
- it is armed only when the audit half (ssr_guard_audit.py, installed by usercustomize.py at
  interpreter start) holds the supervisor's socket; it removes SSR_GUARD_CONF so child processes
  do not inherit it;
- streams every test phase's outcome from the runner's own reports to the supervisor
  (ssr_guard_supervisor.py, another process), which alone holds the run's key and signs the
  record: nothing in this process can sign a result;
- snapshots, at import, the identity of every function and class attribute of pytest, pluggy,
  unittest and doctest; compares the report path's part of it before every call-phase report
  leaves and the whole of it when collection ends and when the session ends: repository code
  that monkeypatches the runner's machinery is reported as tampering;
- reports hook implementations of the runner's reporting hooks that live in repository files
  other than tests and conftest.py (a plugin registered from package code);
- holds the collected test code to what the pristine test files compile to (ssr_guard_code.py);
- compares every doctest pytest collected from a .py file with the docstring of the same object in
  that file's source text: doctest reads `__doc__` at run time, so code that rewrites a docstring
  (an assignment, setattr, a decorator, functools.wraps of another function) would change what
  the examples expect without changing an example line; such a doctest is reported as tampering
  ("doctest-rewritten:<node id>"). The same holds for examples changed on the collected test
  objects before the session ends. A definition with no docstring of its own may borrow one of
  its file (an alias); a repo whose own docstrings are generated at run time (templated by a
  decorator) is reported on the original run too, which is then simply unguarded.

Limits (said plainly in docs/grading.md, "What still cannot be defended"): the socket is a file
descriptor of this process; code written against this protocol that silences a failure without
any audited action could still stream passes in this process's name. Stdlib only.
"""
import ast
import operator
import os
import sys

import pytest

import ssr_guard_audit
from ssr_guard_code import changed_test_code

# The guard's helper modules leave sys.modules once the plugin holds what it needs: repository code
# that imports one loads a fresh copy, which the audit hook reports (`guard-probed`).
for _name in ssr_guard_audit.GUARD_MODULES[:-1]:
    sys.modules.pop(_name, None)

_CONF_ENV = "SSR_GUARD_CONF"
# Modules whose functions decide what a test outcome is; a rebinding in any of them is tampering.
_WATCHED_ROOTS = ("pytest", "_pytest", "pluggy", "unittest", "doctest")
# Hooks through which an outcome travels from the test to the report the terminal prints.
_REPORT_HOOKS = (
    "pytest_runtest_protocol",
    "pytest_runtest_setup",
    "pytest_runtest_call",
    "pytest_runtest_teardown",
    "pytest_runtest_makereport",
    "pytest_runtest_logreport",
    "pytest_report_teststatus",
    "pytest_pyfunc_call",
    "pytest_runtestloop",
    "pytest_collection_modifyitems",
    "pytest_deselected",
    "pytest_terminal_summary",
    "pytest_sessionfinish",
)


def _read_conf():
    # The start-up half (usercustomize.py) asked for this plugin; children must not inherit that.
    opts = os.environ.get("PYTEST_ADDOPTS", "")
    if opts.startswith("-p ssr_grading_guard"):
        os.environ["PYTEST_ADDOPTS"] = opts[len("-p ssr_grading_guard"):].strip()
    path = os.environ.pop(_CONF_ENV, None)
    # Armed only when the audit half (usercustomize.py) holds the supervisor's socket: it answers
    # the beat with a sender of the plugin's own (the hook's state never leaves its closure).
    facts = ssr_guard_audit.facts("armed") if path else None
    return facts["send"] if facts is not None else None


def _watched(name):
    return any(name == root or name.startswith(root + ".") for root in _WATCHED_ROOTS)


def _snapshot():
    """(module, owner attribute, attribute) -> object, for every callable or descriptor worth watching."""
    import doctest  # noqa: F401  (imported so that its machinery is in the snapshot)
    import unittest  # noqa: F401

    snap = {}
    for name, module in list(sys.modules.items()):
        if module is None or not _watched(name):
            continue
        for attr, value in list(vars(module).items()):
            if callable(value) or isinstance(value, (property, staticmethod, classmethod)):
                snap[(name, "", attr)] = value
            if isinstance(value, type) and getattr(value, "__module__", None) == name:
                for cattr, cvalue in list(vars(value).items()):
                    if callable(cvalue) or isinstance(cvalue, (property, staticmethod, classmethod)):
                        snap[(name, attr, cattr)] = cvalue
    return snap


# The modules an outcome passes through between a test's call and its report: checked before every
# report leaves (the whole snapshot is checked when collection ends and when the session ends).
_REPORT_PATH = ("_pytest.runner", "_pytest.reports", "_pytest.python", "_pytest.unittest", "_pytest.skipping",
                "_pytest.outcomes", "_pytest.main", "_pytest.fixtures", "_pytest.terminal", "pluggy._callers",
                "pluggy._hooks", "pluggy._manager", "pluggy._result", "unittest.case", "unittest.result")


def _fast_view(snap):
    """The report path's part of the snapshot as parallel lists, for identity checks run in C (see
    _moved): the keys, the live dicts holding them, the attribute names and the snapshot values."""
    keys, holders, values = [], [], []
    for (name, owner, attr), value in snap.items():
        module = sys.modules.get(name)
        if module is None or name not in _REPORT_PATH:
            continue
        keys.append((name, owner, attr))
        holders.append(vars(module) if owner == "" else vars(vars(module).get(owner, object)))
        values.append(value)
    return keys, holders, [key[2] for key in keys], values


def _moved(fast):
    """Indexes of the entries whose live value is no longer the very object of the baseline. The
    common case, nothing moved, is one pass in C (half the time of a Python loop, before every
    test's report); identity only (operator.is_): no __eq__ of a replacement ever runs."""
    _, holders, names, values = fast
    try:
        if all(map(operator.is_, map(operator.getitem, holders, names), values)):
            return []
    except KeyError:
        pass  # a name deleted: the look below, one by one, finds which
    return [index for index, name in enumerate(names) if holders[index].get(name) is not values[index]]


def _code_file(value):
    """The file that defines a replacement, or None when it has no Python code (a partial, a builtin)."""
    for inner in ("__func__", "fget"):
        value = getattr(value, inner, None) or value
    code = getattr(value, "__code__", None)
    return os.path.realpath(code.co_filename) if code is not None else None


def _changed(snap, root):
    """Watched attributes rebound since import, except by code installed outside the repository
    (pytest's own plugins rebind a few at configure time, e.g. legacypath)."""
    changed = []
    for (name, owner, attr), value in snap.items():
        module = sys.modules.get(name)
        holder = module if owner == "" or module is None else vars(module).get(owner)
        current = vars(holder).get(attr, None) if holder is not None else None
        if current is value:
            continue
        where = _code_file(current) if current is not None else None
        if where is not None and not where.startswith(root + os.sep):
            continue
        changed.append("%s.%s" % (name, attr) if owner == "" else "%s.%s.%s" % (name, owner, attr))
    return sorted(changed)


def _is_test_file(relative):
    parts = relative.split(os.sep)
    name = parts[-1]
    if any(part in ("tests", "test", "testing") for part in parts[:-1]):
        return True
    return name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py")


def _root(config):
    return os.path.realpath(str(config.invocation_params.dir))


def _foreign_hookimpls(config):
    """Hook implementations of the reporting hooks defined in repository code that is not a test."""
    root = _root(config)
    found = []
    for hook in _REPORT_HOOKS:
        caller = getattr(config.pluginmanager.hook, hook, None)
        if caller is None:
            continue
        for impl in caller.get_hookimpls():
            code = getattr(impl.function, "__code__", None)
            filename = os.path.realpath(code.co_filename) if code is not None else ""
            if not filename.startswith(root + os.sep):
                continue
            relative = os.path.relpath(filename, root)
            if not _is_test_file(relative):
                found.append("%s:%s" % (hook, relative))
    return sorted(set(found))


def _source_docstrings(filename):
    """Dotted name inside the module -> the docstrings its definitions have in the source text
    ("" is the module's own). A name defined more than once (a property's setter, a definition
    under `if`) keeps every docstring. None when the file cannot be read or parsed."""
    try:
        with open(filename, "rb") as handle:
            tree = ast.parse(handle.read(), filename)
    except (OSError, SyntaxError, ValueError):
        return None
    found = {"": [ast.get_docstring(tree, clean=False)]}

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.setdefault(prefix + child.name, []).append(ast.get_docstring(child, clean=False))
                if isinstance(child, ast.ClassDef):
                    walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.stmt):
                walk(child, prefix)  # definitions under if / try / with are module attributes too

    walk(tree, "")
    return found


def _examples(examples):
    return [(e.source, e.want, e.exc_msg, sorted(e.options.items())) for e in examples]


def _doctest_of(item):
    """(DocTest, the collected .py file's path) of a doctest collected from a Python module, else
    None. The path is pytest's own (what it collected), not the module's `__file__`, which the
    module's code could point at a file of its own."""
    import doctest

    dtest = getattr(item, "dtest", None)
    path = str(getattr(item, "path", None) or getattr(item, "fspath", ""))
    if not isinstance(dtest, doctest.DocTest) or not path.endswith(".py"):
        return None
    return dtest, path


def _rewritten(dtest, sources, parser):
    """Whether the examples doctest runs differ from those of every docstring the source gives the
    same name. A name whose definitions have no docstring in the source may borrow another one of
    the file (`f.__doc__ = _f.__doc__`, an alias kept for an old Python): its examples must be
    those of some docstring of the file. A name the source does not define (a `__test__` entry,
    an object made at run time) cannot be compared and is left alone."""
    module = str(dtest.globs.get("__name__", ""))
    if dtest.name == module:
        relative = ""
    elif module and dtest.name.startswith(module + "."):
        relative = dtest.name[len(module) + 1:]
    else:
        return False
    if relative.startswith("__test__.") or relative not in sources:
        return False
    texts = [text for text in sources[relative] if text is not None]
    if not texts:
        texts = [text for group in sources.values() for text in group if text is not None]
    runtime = _examples(dtest.examples)
    return all(_examples(parser.get_examples(text)) != runtime for text in texts)


class _DoctestSources:
    """What each collected doctest's examples were when collection ended, held to the source text."""

    def __init__(self, config):
        self.config = config
        self.snapshots = {}
        self.rewritten = set()

    def collected(self, items):
        import doctest

        parser = doctest.DocTestParser()
        files = {}
        for item in items:
            found = _doctest_of(item)
            if found is None:
                continue
            dtest, path = found
            nodeid = self.config.cwd_relative_nodeid(item.nodeid)
            self.snapshots[nodeid] = (dtest, _examples(dtest.examples))
            if path not in files:
                files[path] = _source_docstrings(path)
            sources = files[path]
            if sources is not None and _rewritten(dtest, sources, parser):
                self.rewritten.add(nodeid)

    def tampered(self):
        """The doctests whose examples are not the source's, or changed after collection."""
        changed = {nodeid for nodeid, (dtest, examples) in self.snapshots.items() if _examples(dtest.examples) != examples}
        return ["doctest-rewritten:" + nodeid for nodeid in sorted(self.rewritten | changed)]


class _Recorder:
    """Registered on the first config only, so pytest sessions run inside a test are not mixed in."""

    def __init__(self, config, snap, send, facts=ssr_guard_audit.facts):
        self.config = config
        self.send = send
        self.facts = facts
        self.snap = snap
        self.errors = []
        self.sent = set()
        self.fast = None
        self.doctests = _DoctestSources(config)
        send({"t": "start"})

    def _stream(self, tampered, foreign=()):
        """Send what is new since the last time: the supervisor keeps it, whatever happens next."""
        new = [entry for entry in list(tampered) + list(foreign) if entry not in self.sent]
        if new:
            self.sent.update(new)
            self.send({"t": "session-tamper", "what": [e for e in new if e in tampered], "foreign": [e for e in new if e in foreign]})

    def _runner_check(self):
        """The snapshot compared before every call-phase report leaves: identity checks on live
        dicts, in C (some 25 us for a thousand entries); only what moved goes through _changed,
        and a rebinding it exempts (pytest's own plugins) becomes the new baseline."""
        try:
            if self.fast is None:
                self.fast = _fast_view(self.snap)
            moved = _moved(self.fast)
            if not moved:
                return
            keys, holders, names, values = self.fast
            self._stream(_changed({keys[index]: values[index] for index in moved}, _root(self.config)))
            for index in moved:
                values[index] = holders[index].get(names[index])
        except Exception as error:  # noqa: BLE001
            self._stream(["guard-error: %r" % (error,)])

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session):
        try:
            self.doctests.collected(session.items)
        except Exception as error:  # noqa: BLE001
            self.errors.append("doctests: %r" % (error,))
        try:
            # The hook's beat: proof it still watches, and its copy of the pristine test sources.
            facts = self.facts("collected")
            if facts is None:
                self._stream(["guard-silent:the audit hook did not answer when collection ended"])
            else:
                self._stream(changed_test_code(self.config, session.items, facts))
            self._stream(_changed(self.snap, _root(self.config)))
        except Exception as error:  # noqa: BLE001
            self.errors.append("test code: %r" % (error,))

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report):
        # Never break the run it watches: a guard error makes the record say so, not pytest crash.
        try:
            nodeid = self.config.cwd_relative_nodeid(report.nodeid)
            if report.failed:
                phase = "failed"
            elif hasattr(report, "wasxfail"):
                phase = "xpassed" if report.passed else "xfailed"
            elif report.skipped:
                phase = "skipped"
            else:
                phase = "passed"
            # Checked before the outcome leaves: a report that went through rebound machinery is
            # preceded by the tampering it went through.
            if report.when == "call":
                self._runner_check()
            self.send({"t": "report", "id": nodeid, "when": report.when, "phase": phase})
        except Exception as error:  # noqa: BLE001
            self.errors.append("logreport: %r" % (error,))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus):
        try:
            tampered = _changed(self.snap, _root(self.config)) + self.doctests.tampered()
            foreign = _foreign_hookimpls(self.config)
        except Exception as error:  # noqa: BLE001
            tampered, foreign = ["guard-error: %r" % (error,)], []
        # A guard that could not watch everything cannot vouch for the run.
        self._stream(tampered + ["guard-error: " + e for e in self.errors], foreign)
        # The hook's beat goes out just before the end: the supervisor holds a session without it to
        # be one whose hook was silenced.
        self.facts("end")
        self.send({"t": "end", "exitstatus": int(exitstatus)})


def _safe_snapshot():
    try:
        return _snapshot()
    except Exception:  # noqa: BLE001
        # Without a snapshot nothing can be compared: report that rather than break the run.
        return {("ssr_grading_guard", "", "snapshot-failed"): object()}


_CONF = _read_conf()
_SNAPSHOT = _safe_snapshot() if _CONF is not None else {}
_STATE = {"registered": False}


def pytest_configure(config):
    if _CONF is None or _STATE["registered"]:
        return
    _STATE["registered"] = True
    config.pluginmanager.register(_Recorder(config, _SNAPSHOT, _CONF), "ssr-grading-guard-recorder")
