"""ssr's grading guard, first half: an audit hook (PEP 578) in the pytest process from its start.

usercustomize.py imports this module at interpreter start-up, before pytest and before any
repository code, in a pytest process started under the supervisor (ssr_guard_supervisor.py). An
audit hook cannot be removed, so what it reports holds whatever the code under test does later.
Every report is a datagram on the supervisor's socket, sent at once: nothing later in this
process can take it back. Reported (each as `<kind>:<what>`):

- `test-file-write`: test material (ssr_test_material.is_material) opened for writing, renamed,
  removed, truncated, linked over or made writable;
- `test-code-replaced`: the code (or defaults) of a function defined in test material or in the
  runner's machinery reassigned (`f.__code__ = ...`);
- `runner-patched`: an attribute of a class of pytest, pluggy, unittest, doctest, the guard or of
  a test file set or deleted by repository code (a frame of a repo file that is not a test is on
  the stack): the runner's machinery, `TestCase.assertEqual`, a test class's method swapped;
- `trace-hook`: sys.settrace / sys.setprofile / sys.monitoring called by repository code;
- `native-code`: ctypes loading a library or reading raw memory, called by repository code;
- `memory-read`: a /proc/<pid>/mem, environ or maps file opened (looking for the guard's secrets);
- `runner-replaced`: the pytest process itself exec()s another program.

It also reads, at start-up, the source of every Python test file (what the pristine source
compiles to is checked against the loaded test code when collection ends: ssr_grading_guard.py).
Stdlib only.
"""
import json
import os
import sys

_FD_ENV = "SSR_GUARD_FD"
_RUNNER_ROOTS = ("pytest", "_pytest", "pluggy", "unittest", "doctest", "ssr_grading_guard", "ssr_guard_audit")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_PATH_EVENTS = {"os.remove": (0,), "os.rename": (0, 1), "os.truncate": (0,), "os.link": (1,), "os.symlink": (1,),
                "os.chmod": (0,), "os.chown": (0,)}
_REPO_CALLER_EVENTS = {"sys.settrace": "trace-hook", "sys.setprofile": "trace-hook",
                       "sys.monitoring.register_callback": "trace-hook", "ctypes.dlopen": "native-code",
                       "ctypes.cdata": "native-code", "ctypes.string_at": "native-code", "ctypes.wstring_at": "native-code"}
_EXEC_EVENTS = ("os.exec", "os.posix_spawn", "os.spawn")

ROOT = os.path.realpath(os.getcwd())
PID = os.getpid()
_state = {"fd": None, "busy": False, "sent": set()}
# Repository-relative path -> source bytes, for every Python test file, read before any repo code.
PRISTINE = {}
# Test files whose cached bytecode this process opened (pytest's rewritten-module cache, or the
# interpreter's own): their code is what that file says, not necessarily what the source does.
BYTECODE_READ = set()

try:
    from ssr_test_material import is_material, material
except ImportError:  # the guard folder always holds it; never break a run over it
    def is_material(relative):
        return False

    def material(repo):
        return []


def send(message):
    """One datagram to the supervisor; silently nothing when there is none."""
    fd = _state["fd"]
    if fd is None:
        return
    message.setdefault("pid", os.getpid())
    try:
        os.write(fd, json.dumps(message).encode("utf-8") + b"\n")
    except OSError:
        pass


def report(kind, what):
    key = "%s:%s" % (kind, what)
    if key in _state["sent"]:
        return
    _state["sent"].add(key)
    send({"t": "tamper", "what": key})


def relative(path):
    """The repo-relative path of `path`, or None outside the repo."""
    try:
        path = os.fsdecode(path) if not isinstance(path, int) else None
    except TypeError:
        return None
    if not path:
        return None
    full = os.path.realpath(os.path.join(ROOT, path))
    if not full.startswith(ROOT + os.sep):
        return None
    return os.path.relpath(full, ROOT).replace(os.sep, "/")


_code_files = {}


def in_repo_code(filename):
    """Whether a code file is repository code that is not test material (cached: frames repeat)."""
    found = _code_files.get(filename)
    if found is None:
        rel = relative(filename) if filename and not filename.startswith("<") else None
        found = _code_files[filename] = rel is not None and not is_material(rel)
    return found


def repo_caller():
    """The first repo file (not a test) on the stack, or None."""
    frame = sys._getframe(2)
    while frame is not None:
        if in_repo_code(frame.f_code.co_filename):
            return relative(frame.f_code.co_filename)
        frame = frame.f_back
    return None


def _material_path(path):
    rel = relative(path)
    return rel if rel is not None and is_material(rel) else None


def _watched_code(code):
    filename = getattr(code, "co_filename", "") or ""
    rel = relative(filename)
    if rel is not None:
        return is_material(rel)
    return any(("/%s/" % root) in filename or filename.endswith("/%s.py" % root) for root in _RUNNER_ROOTS)


_modules = {}


def _watched_type(owner):
    module = str(getattr(owner, "__module__", "") or "")
    found = _modules.get(module)
    if found is None:
        if any(module == root or module.startswith(root + ".") for root in _RUNNER_ROOTS):
            found = _modules["runner:" + module] = True
        else:
            mod = sys.modules.get(module)
            rel = relative(getattr(mod, "__file__", None) or "") if mod is not None else None
            found = rel is not None and is_material(rel)
        _modules[module] = found
    return found


def _replaces_test_code(owner, name):
    """Whether setting `name` on a class of a test file replaces test code: a test, or a function
    the test file defines there."""
    existing = getattr(vars(owner).get(name), "__func__", vars(owner).get(name))
    code = getattr(existing, "__code__", None)
    return str(name).startswith("test") or (code is not None and _watched_code(code))


def _on_setattr(args):
    owner, name = args[0], args[1]
    if name in ("__code__", "__defaults__", "__kwdefaults__") and hasattr(owner, "__code__"):
        if _watched_code(owner.__code__):
            report("test-code-replaced", "%s.%s" % (getattr(owner, "__qualname__", "?"), name))
    elif isinstance(owner, type) and _watched_type(owner):
        runner = _modules.get("runner:" + owner.__module__)
        if not runner and not _replaces_test_code(owner, name):
            return  # package code decorating a test's class (a metaclass, a marker attribute)
        caller = repo_caller()
        if caller is not None:
            # A test class's test or helper swapped is test code replaced; anything else is the runner's.
            report("runner-patched" if runner else "test-code-replaced", "%s.%s.%s by %s" % (owner.__module__, owner.__qualname__, name, caller))


def _on_open(args):
    path, mode, flags = args[0], args[1], args[2]
    if isinstance(path, str) and path.startswith("/proc/") and path.rsplit("/", 1)[-1] in ("mem", "environ", "maps"):
        report("memory-read", path)
    writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & _WRITE_FLAGS)
    if writing:
        rel = _material_path(path)
        if rel is not None:
            report("test-file-write", rel)
    elif isinstance(path, str) and path.endswith(".pyc") and os.sep + "__pycache__" + os.sep in path:
        # A .pyc planted for a test module (the source, and so its hash, unchanged) is loaded in
        # its place when its header carries the source's mtime and size; ssr_guard_code compares it.
        folder, name = os.path.split(path)
        rel = _material_path(os.path.join(os.path.dirname(folder), name.split(".", 1)[0] + ".py"))
        if rel is not None:
            BYTECODE_READ.add(rel)


def _on_compile(args):
    filename = args[1] if len(args) > 1 else None
    if isinstance(filename, (str, bytes)) and _material_path(filename) is not None:
        caller = repo_caller()
        if caller is not None:
            report("test-code-replaced", "compile as %s by %s" % (os.fsdecode(filename), caller))


# The events the hook acts on (with the exec family, by prefix): tested first, in C, because the
# hook runs for every event of the process and most (attribute reads, exec, import) are not these.
_WATCHED = frozenset(("compile", "open", "object.__setattr__", "object.__delattr__") + tuple(_PATH_EVENTS) + tuple(_REPO_CALLER_EVENTS))


def _hook(event, args):
    if (event not in _WATCHED and not event.startswith(_EXEC_EVENTS)) or _state["busy"]:
        return
    if event == "compile":
        if len(args) > 1 and isinstance(args[1], str) and not args[1].startswith("<"):
            _state["busy"] = True
            try:
                _on_compile(args)
            except Exception:  # noqa: BLE001
                pass
            finally:
                _state["busy"] = False
        return
    _state["busy"] = True
    try:
        if event == "open":
            _on_open(args)
        elif event == "object.__setattr__" or event == "object.__delattr__":
            _on_setattr(args)
        elif event in _PATH_EVENTS:
            for index in _PATH_EVENTS[event]:
                rel = _material_path(args[index]) if index < len(args) else None
                if rel is not None:
                    report("test-file-write", rel)
        elif event in _REPO_CALLER_EVENTS:
            # ctypes opens the interpreter itself as it is imported (pythonapi): not repo code's doing.
            caller = None if event == "ctypes.dlopen" and args and args[0] is None else repo_caller()
            if caller is not None:
                report(_REPO_CALLER_EVENTS[event], "%s by %s" % (event, caller))
        elif os.getpid() == PID:
            report("runner-replaced", event)
    except Exception:  # noqa: BLE001  (a guard error must never break the run it watches)
        pass
    finally:
        _state["busy"] = False


def _read_pristine():
    for rel in material(ROOT):
        if rel.endswith(".py"):
            try:
                with open(os.path.join(ROOT, rel), "rb") as handle:
                    PRISTINE[rel] = handle.read()
            except OSError:
                pass


def install():
    """Take the supervisor's socket (out of the environment, onto a close-on-exec fd) and install the hook."""
    raw = os.environ.pop(_FD_ENV, None)
    if raw is None or not raw.isdigit():
        return False
    fd = int(raw)
    try:
        os.set_inheritable(fd, False)  # children the tests start do not speak for this session
    except OSError:
        return False
    _state["fd"] = fd
    _read_pristine()
    sys.addaudithook(_hook)
    return True
