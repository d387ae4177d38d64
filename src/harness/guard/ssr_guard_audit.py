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
- `guard-probed`: repository code reaching for the guard itself: a guard module imported (they
  leave sys.modules once set up), the heap walked (gc.get_objects / get_referrers /
  get_referents), other threads' frames read (sys._current_frames), or a frame taken
  (sys._getframe, a traceback's or generator's frame) by code running inside the hook;
- `runner-replaced`: the pytest process itself exec()s another program.

Nothing the hook acts on is a module attribute: its state (the socket, what it sent, which
threads are inside it, the pristine test sources, the bytecode read), its helpers and the
builtins it calls are bound in the closure of a hook function that nothing but the interpreter's
hook list holds, at install time, before any repository code runs. Rebinding this module's
globals, or builtins, later changes nothing it does. Each message it sends carries a sequence
number, and it answers a `ssr-guard.beat` audit event (raised by the plugin when collection ends
and when the session ends) with a `beat` message: the supervisor holds a session whose beat is
missing, or whose count shows messages lost, to be a silenced guard (docs/grading.md).

It also reads, at start-up, the source of every Python test file (what the pristine source
compiles to is checked against the loaded test code when collection ends: ssr_guard_code.py;
the plugin gets a copy through the beat). Stdlib only.
"""
import json
import os
import sys
from _thread import RLock, get_ident

_FD_ENV = "SSR_GUARD_FD"
BEAT_EVENT = "ssr-guard.beat"
GUARD_MODULES = ("ssr_guard_audit", "ssr_guard_code", "ssr_test_material", "ssr_grading_guard")
_RUNNER_ROOTS = ("pytest", "_pytest", "pluggy", "unittest", "doctest") + GUARD_MODULES
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_PATH_EVENTS = {"os.remove": (0,), "os.rename": (0, 1), "os.truncate": (0,), "os.link": (1,), "os.symlink": (1,),
                "os.chmod": (0,), "os.chown": (0,)}
_REPO_CALLER_EVENTS = {"sys.settrace": "trace-hook", "sys.setprofile": "trace-hook",
                       "sys.monitoring.register_callback": "trace-hook", "ctypes.dlopen": "native-code",
                       "ctypes.cdata": "native-code", "ctypes.string_at": "native-code", "ctypes.wstring_at": "native-code",
                       "gc.get_objects": "guard-probed", "gc.get_referrers": "guard-probed",
                       "gc.get_referents": "guard-probed", "sys._current_frames": "guard-probed"}
_EXEC_EVENTS = ("os.exec", "os.posix_spawn", "os.spawn")
# Attribute reads that hand out a frame (PEP 578 audits them): from a frame, f_back walks the stack.
_FRAME_ATTRS = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame"))
# Seen only when raised by code running inside the hook (called from it: a path's __fspath__, a
# class's __module__): from there the hook's own frame, and its closure, is one f_back away.
_INSIDE_PROBES = frozenset(("sys._getframe", "object.__getattr__", "sys._current_frames", "gc.get_objects",
                            "gc.get_referrers", "gc.get_referents"))

try:
    from ssr_test_material import is_material, material
except ImportError:  # the guard folder always holds it; never break a run over it
    def is_material(relative):
        return False

    def material(repo):
        return []


def helpers(root, is_material=is_material, realpath=os.path.realpath, join=os.path.join, relpath=os.path.relpath,
            fsdecode=os.fsdecode, sep=os.sep, isinstance=isinstance, int=int, TypeError=TypeError):
    """(relative, in_repo_code) for the repo at `root`, with a cache of their own (frames repeat):
    `relative(path)` is the repo-relative path or None outside the repo; `in_repo_code(filename)`
    whether a code file is repository code that is not test material."""
    prefix = root + sep

    def relative(path):
        try:
            path = fsdecode(path) if not isinstance(path, int) else None
        except TypeError:
            return None
        if not path:
            return None
        full = realpath(join(root, path))
        if not full.startswith(prefix):
            return None
        return relpath(full, root).replace(sep, "/")

    code_files = {}

    def in_repo_code(filename):
        found = code_files.get(filename)
        if found is None:
            rel = relative(filename) if filename and not filename.startswith("<") else None
            found = code_files[filename] = rel is not None and not is_material(rel)
        return found

    return relative, in_repo_code


def sender(fd, getpid=os.getpid, write=os.write, dumps=json.dumps, OSError=OSError):
    """One JSON line to the supervisor per call (the plugin's own stream: start, reports, end)."""
    def send(message):
        message.setdefault("pid", getpid())
        try:
            write(fd, dumps(message).encode("utf-8") + b"\n")
        except OSError:
            pass
    return send


def _arm(fd, root, pristine, sys_modules, getframe, getpid=os.getpid, write=os.write, dumps=json.dumps,
         join=os.path.join, dirname=os.path.dirname, split=os.path.split, fsdecode=os.fsdecode, sep=os.sep,
         is_material=is_material, helpers=helpers, sender=sender, get_ident=get_ident, RLock=RLock,
         isinstance=isinstance, getattr=getattr, hasattr=hasattr, vars=vars, len=len, str=str, any=any, int=int,
         bytes=bytes, type=type, dict=dict, set=set, frozenset=frozenset, Exception=Exception, OSError=OSError):
    """The hook, with everything it reads and writes in its closure (see the module's docstring)."""
    pid = getpid()
    relative, in_repo_code = helpers(root)
    sent = set()
    bytecode_read = set()  # test files whose cached bytecode this process opened
    inside = {}  # thread -> how deep it is in the hook now
    looking = set()  # threads in the hook's own sys._getframe
    counts, locks = {}, {}
    watched_events = frozenset(("compile", "open", "object.__setattr__", "object.__delattr__", "import", BEAT_EVENT)
                               + tuple(_PATH_EVENTS) + tuple(_REPO_CALLER_EVENTS) + tuple(_INSIDE_PROBES))
    path_events, caller_events, exec_events = dict(_PATH_EVENTS), dict(_REPO_CALLER_EVENTS), _EXEC_EVENTS
    frame_attrs, inside_probes, guard_modules, runner_roots = _FRAME_ATTRS, _INSIDE_PROBES, GUARD_MODULES, _RUNNER_ROOTS
    write_flags = _WRITE_FLAGS
    modules = {}

    def emit(message):
        """A numbered message (per process, under a lock: numbers reach the socket in order)."""
        me = getpid()
        lock = locks.get(me) or locks.setdefault(me, RLock())  # a forked child gets its own; a signal handler may re-enter
        with lock:
            count = counts[me] = counts.get(me, 0) + 1
            message["pid"], message["seq"] = me, count
            try:
                write(fd, dumps(message).encode("utf-8") + b"\n")
            except OSError:
                pass

    def report(kind, what):
        key = "%s:%s" % (kind, what)
        if key not in sent:
            sent.add(key)
            emit({"t": "tamper", "what": key})

    def repo_caller():
        """The first repo file (not a test) on the stack, or None."""
        me = get_ident()
        looking.add(me)
        try:
            frame = getframe(1)
        finally:
            looking.discard(me)
        while frame is not None:
            if in_repo_code(frame.f_code.co_filename):
                return relative(frame.f_code.co_filename)
            frame = frame.f_back
        return None

    def material_path(path):
        rel = relative(path)
        return rel if rel is not None and is_material(rel) else None

    def watched_code(code):
        filename = getattr(code, "co_filename", "") or ""
        rel = relative(filename)
        if rel is not None:
            return is_material(rel)
        return any(("/%s/" % name) in filename or filename.endswith("/%s.py" % name) for name in runner_roots)

    def watched_type(owner):
        module = str(getattr(owner, "__module__", "") or "")
        found = modules.get(module)
        if found is None:
            if any(module == name or module.startswith(name + ".") for name in runner_roots):
                found = modules["runner:" + module] = True
            else:
                mod = sys_modules.get(module)
                rel = relative(getattr(mod, "__file__", None) or "") if mod is not None else None
                found = rel is not None and is_material(rel)
            modules[module] = found
        return found

    def replaces_test_code(owner, name):
        existing = getattr(vars(owner).get(name), "__func__", vars(owner).get(name))
        code = getattr(existing, "__code__", None)
        return str(name).startswith("test") or (code is not None and watched_code(code))

    def on_setattr(args):
        owner, name = args[0], args[1]
        if name in ("__code__", "__defaults__", "__kwdefaults__") and hasattr(owner, "__code__"):
            if watched_code(owner.__code__):
                report("test-code-replaced", "%s.%s" % (getattr(owner, "__qualname__", "?"), name))
        elif isinstance(owner, type) and watched_type(owner):
            runner = modules.get("runner:" + owner.__module__)
            if not runner and not replaces_test_code(owner, name):
                return  # package code decorating a test's class (a metaclass, a marker attribute)
            caller = repo_caller()
            if caller is not None:
                report("runner-patched" if runner else "test-code-replaced", "%s.%s.%s by %s" % (owner.__module__, owner.__qualname__, name, caller))

    def on_open(args):
        path, mode, flags = args[0], args[1], args[2]
        if isinstance(path, str) and path.startswith("/proc/") and path.rsplit("/", 1)[-1] in ("mem", "environ", "maps"):
            report("memory-read", path)
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & write_flags)
        if writing:
            rel = material_path(path)
            if rel is not None:
                report("test-file-write", rel)
        elif isinstance(path, str) and path.endswith(".pyc") and sep + "__pycache__" + sep in path:
            # A .pyc planted for a test module (the source, and so its hash, unchanged) is loaded in
            # its place when its header carries the source's mtime and size; ssr_guard_code compares it.
            folder, name = split(path)
            rel = material_path(join(dirname(folder), name.split(".", 1)[0] + ".py"))
            if rel is not None:
                bytecode_read.add(rel)

    def on_beat(args):
        """Proof of life at a known point, and a fresh copy of what the plugin needs."""
        where = args[0] if args else None
        if isinstance(where, str) and where != "armed":
            emit({"t": "beat", "at": where})
        if len(args) > 1 and isinstance(args[1], list):
            args[1].append({"send": sender(fd), "root": root, "pristine": dict(pristine),
                            "bytecode_read": frozenset(bytecode_read)})

    def handle(event, args):
        if event == "open":
            on_open(args)
        elif event == "object.__setattr__" or event == "object.__delattr__":
            on_setattr(args)
        elif event == "compile":
            filename = args[1] if len(args) > 1 else None
            if isinstance(filename, str) and not filename.startswith("<") and material_path(filename) is not None:
                caller = repo_caller()
                if caller is not None:
                    report("test-code-replaced", "compile as %s by %s" % (fsdecode(filename), caller))
        elif event == "import":
            name = args[0] if args else None
            if isinstance(name, str) and name.split(".", 1)[0] in guard_modules:
                caller = repo_caller()
                if caller is not None:
                    report("guard-probed", "import %s by %s" % (name, caller))
        elif event == BEAT_EVENT:
            on_beat(args)
        elif event in path_events:
            for index in path_events[event]:
                rel = material_path(args[index]) if index < len(args) else None
                if rel is not None:
                    report("test-file-write", rel)
        elif event in caller_events:
            # ctypes opens the interpreter itself as it is imported (pythonapi): not repo code's doing.
            caller = None if event == "ctypes.dlopen" and args and args[0] is None else repo_caller()
            if caller is not None:
                report(caller_events[event], "%s by %s" % (event, caller))
        elif event.startswith(exec_events) and getpid() == pid:
            report("runner-replaced", event)

    def hook(event, args):
        if event not in watched_events and not event.startswith(exec_events):
            return
        me = get_ident() if inside else None  # `inside` is empty most of the time: no call then
        depth = inside.get(me, 0) if me is not None else 0
        if depth:
            # Code running inside the hook (a path's __fspath__ it called, a signal handler that
            # fired in it) is watched like any other; a frame it takes leads to the hook's own.
            if event == "sys._getframe" and me in looking:
                return  # the hook's own look at the stack
            if event in inside_probes and (event != "object.__getattr__" or (len(args) > 1 and args[1] in frame_attrs)):
                try:
                    report("guard-probed", "%s inside the audit hook" % (args[1] if event == "object.__getattr__" else event))
                except Exception:  # noqa: BLE001
                    pass
                return
            if depth >= 3:
                return  # the guard raises no watched event itself: bounded all the same
        if event == "object.__getattr__" or event == "sys._getframe":
            return  # only a probe from inside the hook
        if me is None:
            me = get_ident()
        inside[me] = depth + 1
        try:
            handle(event, args)
        except Exception:  # noqa: BLE001  (a guard error must never break the run it watches)
            pass
        finally:
            if depth:
                inside[me] = depth
            else:
                inside.pop(me, None)

    return hook


def facts(where):
    """Raise the beat at `where` ("armed": no message); the hook's answer (a sender of the
    plugin's own, the root, copies of the pristine sources and of the bytecode read), or None
    when no hook answered (none installed, or one silenced)."""
    box = []
    sys.audit(BEAT_EVENT, where, box)
    return box[0] if box else None


def _read_pristine(root):
    pristine = {}
    for rel in material(root):
        if rel.endswith(".py"):
            try:
                with open(os.path.join(root, rel), "rb") as handle:
                    pristine[rel] = handle.read()
            except OSError:
                pass
    return pristine


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
    root = os.path.realpath(os.getcwd())
    sys.addaudithook(_arm(fd, root, _read_pristine(root), sys.modules, sys._getframe))
    return True
