"""ssr's grading supervisor: holds the key, runs the test command, signs what the guard streamed.

Run by the test driver as the sandbox's own user (root in Docker), outside the test process:

  python3 ssr_guard_supervisor.py <out dir> [--material <repo> <state dir> <uid:gid|-> <n>] -- <command...>
                                                                (stdin: the key, one line)

It reads the per-run key from stdin (never an argument or a variable the tests inherit), makes a
Unix socket pair, and runs the command with one end open as fd $SSR_GUARD_FD (stdin /dev/null).
The guard in the pytest process (usercustomize.py, ssr_grading_guard.py) streams one JSON line
per event to that end: `start`, one `report` per test phase, `tamper`, `end`. The
kernel stamps what each process writes with its real pid (SCM_CREDENTIALS), so a message about a
session sent by any other process (a forked child, another interpreter) is itself tampering.
When the command is over, one record per session that reached its `end` is written to the out
dir, signed with HMAC-SHA256 under the key: the key never enters the test process, so
nothing it reads from its memory, environment or /proc can sign a result. The audit hook numbers
its messages and sends a `beat` when collection ends and just before the session's `end`: a
session that ends with no beat, or whose beat counts more hook messages than arrived, had its
hook silenced or its socket redirected (`guard-silent:` in its record). A failure streamed is
never taken back: a test passes only if none of its phases failed. A session with no `end` (the
process exited early or was killed) gets no record but an `unended-<pid>` file, which the host
counts as invalid.

With --material it also locks the test material before the command and checks it after, in this
same process (ssr_test_material.py, beside the guard's modules in ../p; two interpreter starts
fewer per run than running that module twice): <state dir>/mode gets `read-only`, `hash-only`
or `unavailable`, <state dir>/out the changes, <state dir>/time the command's start and end (ns).
When the lock fails the last <n> words of the command (the prefix that drops to the unprivileged
user) are left off, as the material is then not protected by owners.

Leftovers die first: when the command is over, every process it left behind (daemonised,
double-forked, setsid: out of its process group) is SIGKILLed, by uid, in a loop until a scan of
/proc finds none, BEFORE the last of the stream is read, the records are written and the material
is checked. A process left alive could otherwise rewrite the log (it holds the script's stdout),
the material or a report after the check and before the driver reads them. Which processes: with
a drop to the unprivileged user, every process of that uid; with one user only (or a lock that
failed), every process of this uid started since this supervisor, other than itself and its
ancestors (bubblewrap gives each exec its own pid namespace, so that is the run's own tree).
Processes still alive after the loop's cap are reported as tampering. Exit status: the command's. Stdlib only; silent (its stderr is the driver's
timeout marker): errors go to <out dir>/../supervisor.err.
"""
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import time

_CRED = struct.calcsize("3i")


def _sha256_type():
    """The interpreter's built-in SHA-256 (`_sha2` from 3.12, `_sha256` before): hashlib loads
    OpenSSL, some 4 ms of every run's start-up, for one digest at the end. hashlib where neither is
    built in."""
    for name in ("_sha2", "_sha256"):
        try:
            return getattr(__import__(name), "sha256")
        except (ImportError, AttributeError):
            pass
    import hashlib  # noqa: PLC0415
    return hashlib.sha256


def hmac_sha256(key, message):
    """HMAC-SHA256 (RFC 2104) as hex: the stdlib's hmac imports hashlib, see _sha256_type."""
    sha256 = _sha256_type()
    if len(key) > 64:
        key = sha256(key).digest()
    key = key.ljust(64, b"\0")
    inner = sha256(bytes(byte ^ 0x36 for byte in key) + message).digest()
    return sha256(bytes(byte ^ 0x5C for byte in key) + inner).hexdigest()


def _outcomes(phases):
    """A test passed only if its call passed, no phase failed, and it was not an xfail/xpass."""
    outcomes = {}
    for nodeid, seen in phases.items():
        kinds = [phase for _, phase in seen]
        calls = [phase for when, phase in seen if when == "call"]
        if "failed" in kinds:
            outcomes[nodeid] = "failed"
        elif "xpassed" in kinds or "xfailed" in kinds:
            outcomes[nodeid] = "xpassed" if "xpassed" in kinds else "xfailed"
        elif "skipped" in kinds:
            outcomes[nodeid] = "skipped"
        elif calls and all(phase == "passed" for phase in calls):
            outcomes[nodeid] = "passed"
        else:
            outcomes[nodeid] = "missing"
    return outcomes


class Supervisor:
    def __init__(self, key, out):
        self.key = key
        self.out = out
        self.sessions = {}  # pid -> {"phases", "tampered", "foreign", "written"}
        self.tampered = []  # from any process: every session record carries them
        self.hook_messages = {}  # pid -> numbered (audit hook) messages received from it

    def receive(self, pid, data):
        try:
            msg = json.loads(data.decode("utf-8"))
            kind = msg["t"]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            self.tampered.append("guard-stream-garbled:%d" % pid)
            return
        if "seq" in msg:
            self.hook_messages[pid] = self.hook_messages.get(pid, 0) + 1
        if kind == "tamper":
            self.tampered.append(str(msg.get("what"))[:500])
            return
        claimed = msg.get("pid")
        if claimed != pid:
            # Only the session's own process may speak for it: a forked child or another process
            # writing to the guard's socket is forging.
            self.tampered.append("guard-message-from-another-process:%s" % kind)
            return
        if kind == "start":
            self.sessions.setdefault(pid, {"phases": {}, "foreign": [], "tampered": []})
            return
        session = self.sessions.get(pid)
        if session is None or "exitstatus" in session:
            self.tampered.append("guard-message-outside-a-session:%s" % kind)
            return
        if kind == "beat":
            session.setdefault("beats", []).append(str(msg.get("at")))
            seq = msg.get("seq")
            if not isinstance(seq, int) or self.hook_messages.get(pid, 0) < seq:
                session["tampered"].append("guard-silent:the audit hook sent %s messages before its beat at %s, %d arrived"
                                           % (msg.get("seq"), msg.get("at"), self.hook_messages.get(pid, 0)))
        elif kind == "report":
            session["phases"].setdefault(str(msg["id"]), []).append((str(msg["when"]), str(msg["phase"])))
        elif kind == "session-tamper":
            session["tampered"].extend(str(item)[:500] for item in msg.get("what", []))
            session["foreign"].extend(str(item)[:500] for item in msg.get("foreign", []))
        elif kind == "end":
            if "end" not in session.get("beats", []):
                session["tampered"].append("guard-silent:no beat from the audit hook before the session's end")
            session["exitstatus"] = int(msg.get("exitstatus", -1))

    def write(self, pid, session, exitstatus):
        body = json.dumps({
            "version": 1, "pid": pid, "exitstatus": exitstatus, "outcomes": _outcomes(session["phases"]),
            "tampered": sorted(set(self.tampered + session["tampered"])), "foreignHooks": sorted(set(session["foreign"])),
        }, sort_keys=True)
        mac = hmac_sha256(self.key, body.encode("utf-8"))
        with open(os.path.join(self.out, "session-%d.json" % pid), "w", encoding="utf-8") as handle:
            json.dump({"body": body, "mac": mac}, handle)

    def finish(self):
        """One signed record per ended session (tampering seen at any time, by any process, in
        each); an `unended-<pid>` marker, which does not verify, per session that never ended."""
        for pid, session in self.sessions.items():
            if "exitstatus" in session:
                self.write(pid, session, session["exitstatus"])
            else:
                open(os.path.join(self.out, "unended-%d" % pid), "w").close()


def _drain(sock, supervisor, timeout, pending):
    """Read what is ready; lines are split per sending pid (the kernel never merges data of two
    senders into one read), so one process cannot splice text into another's message."""
    while True:
        ready, _, _ = select.select([sock], [], [], timeout)
        if not ready:
            return
        data, ancdata, _, _ = sock.recvmsg(1 << 20, socket.CMSG_SPACE(_CRED))
        if not data:
            return
        pid = -1
        for level, kind, payload in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                pid = struct.unpack("3i", payload[:_CRED])[0]
        lines = (pending.pop(pid, b"") + data).split(b"\n")
        if lines[-1]:
            pending[pid] = lines[-1]
        for line in lines[:-1]:
            if line:
                supervisor.receive(pid, line)


def _proc_stat(pid):
    """(state, start time in clock ticks, parent pid) of a process, or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[19]), int(fields[1])


def _uids(pid):
    """Real, effective, saved and filesystem uid of a process (not /proc's owner: a process that
    made itself non-dumpable shows root there), or () when it is gone."""
    try:
        with open("/proc/%d/status" % pid) as handle:
            for line in handle:
                if line.startswith("Uid:"):
                    return tuple(int(uid) for uid in line.split()[1:])
    except (OSError, ValueError):
        pass
    return ()


def _leftovers(uid, since, spare):
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in spare:
            continue
        pid = int(name)
        info = _proc_stat(pid)
        # A zombie cannot act; it is its parent's (or init's) to reap.
        if info is None or info[0] in (b"Z", b"X") or uid not in _uids(pid):
            continue
        if since is None or info[1] >= since:
            found.append(pid)
    return found


def kill_leftovers(uid, since):
    """SIGKILL every live process of `uid` (started at or after `since` ticks, when given) except
    this one and its ancestors, until a scan finds none; a SIGKILLed process cannot fork, so a
    fork bomb converges. The pids still alive after the cap (a process stuck in the kernel), or []."""
    spare, pid = set(), os.getpid()
    while pid > 0 and pid not in spare:
        spare.add(pid)
        info = _proc_stat(pid)
        pid = info[2] if info else 0
    found = []
    for _ in range(400):
        found = _leftovers(uid, since, spare)
        if not found:
            return []
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.005)
    return found


def _material_module():
    sys.dont_write_bytecode = True  # nothing written next to the guard's modules
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "p"))
    import ssr_test_material  # noqa: PLC0415 (only runs that lock the material need it)
    return ssr_test_material


def _to_err_file(state, fn):
    """fn() with this process's stderr (the driver's timeout marker) sent to <state>/err: what the
    lock, the check or their chown print must never read as a timeout. Its error is logged there."""
    saved = os.dup(2)
    with open(os.path.join(state, "err"), "a") as log:
        os.dup2(log.fileno(), 2)
        try:
            return fn()
        except Exception as error:  # noqa: BLE001
            log.write("%s: %r\n" % (fn.__name__, error))
            return None
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


def _lock(material):
    """Lock the material; the mode it is protected in, or `unavailable` (the error in <state>/err)."""
    repo, state, owner = material[:3]

    def lock():
        _material_module().lock(os.path.realpath(repo), state, owner)
        return "read-only" if owner != "-" else "hash-only"
    return _to_err_file(state, lock) or "unavailable"


def _check(material, mode, started, ended):
    """Restore and hash again after the command; write what changed, the mode and the times."""
    repo, state = material[:2]
    lines = []
    if mode != "unavailable":

        def check():
            return _material_module().check(os.path.realpath(repo), state)
        lines = _to_err_file(state, check)
        if lines is None:
            mode, lines = "unavailable", []
    with open(os.path.join(state, "out"), "w") as handle:
        handle.write("".join(line + "\n" for line in lines))
    with open(os.path.join(state, "time"), "w") as handle:
        handle.write("%d %d\n" % (started, ended))
    with open(os.path.join(state, "mode"), "w") as handle:
        handle.write(mode + "\n")


def _open_home():
    """The image's home (its git and npm settings) stays readable to the script's user, as it was
    to root: done here, where root already runs, rather than by a chmod process per run."""
    home = os.environ.get("HOME") or "/root"
    try:
        if os.path.isdir(home):
            os.chmod(home, os.stat(home).st_mode & 0o7777 | 0o005)
    except OSError:
        pass


def main(argv):
    out, rest = argv[0], argv[1:]
    material = None
    if rest and rest[0] == "--material":
        material, rest = rest[1:5], rest[5:]
    command = rest[1:]
    key = sys.stdin.readline().strip().encode("ascii")
    mode = None
    if material:
        mode = _lock(material)
        drop = int(material[3])
        if material[2] != "-":
            _open_home()
        if mode == "unavailable" and drop > 0:
            command = command[:-drop]
    # The command's end wakes the loop below at once (SIGCHLD through a pipe), not at its next tick.
    woken, wake = os.pipe()
    os.set_blocking(woken, False)
    os.set_blocking(wake, False)
    signal.set_wakeup_fd(wake)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    started = time.time()
    since = _proc_stat(os.getpid())[1]
    # A stream, not datagrams: a datagram queue holds 10 messages before the sender blocks.
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    env = dict(os.environ, SSR_GUARD_FD=str(theirs.fileno()))
    devnull = os.open(os.devnull, os.O_RDONLY)
    child = subprocess.Popen(command, stdin=devnull, env=env, pass_fds=(theirs.fileno(),))
    theirs.close()
    supervisor = Supervisor(key, out)
    pending = {}
    while child.poll() is None:
        # Tick, do not wait on the socket: a reader blocked on it is woken by every message, and on
        # a loaded machine each wake-up costs the writer a scheduling slice (tens of ms per test).
        select.select([woken], [], [], 0.05)
        try:
            os.read(woken, 512)
        except BlockingIOError:
            pass
        _drain(ours, supervisor, 0, pending)
    ended = time.time()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    # Before anything is read or checked: nothing the tests started may still be running.
    if mode == "read-only":
        survivors = kill_leftovers(int(material[2].split(":")[0]), None)
    else:
        survivors = kill_leftovers(os.getuid(), since)
    if survivors:
        supervisor.tampered.append("leftover-processes-survived:%d" % len(survivors))
    _drain(ours, supervisor, 0.05, pending)  # what was sent just before the end
    supervisor.finish()
    if material:
        # No mode file (unavailable) rather than the command's exit status lost to an error here.
        _to_err_file(material[1], lambda: _check(material, mode, int(started * 1e9), int(ended * 1e9)))
    return child.returncode


if __name__ == "__main__":
    try:
        code = main(sys.argv[1:])
    except Exception as error:  # noqa: BLE001
        with open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "supervisor.err"), "a") as log:
            log.write("%r\n" % (error,))
        code = 125
    sys.exit(code if code >= 0 else 128 - code)
