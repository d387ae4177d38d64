"""ssr's test-material lock: the repo's tests and runner configuration cannot change during a run.

Run by the test driver as the sandbox's own user, before and after the test script (never by the
tests). Two commands:

  lock  <repo> <state dir> <uid:gid or ->   list the test material, hash it into <state>/before;
        with a uid (the driver runs as root and the tests will run as that unprivileged user):
        the whole repo goes to that user, except the material and every folder holding it (up to
        the repo root), which go to the driver's own user, read-only, in folders that are sticky
        (mode 1777: the tests can still create and delete files of their own there, never rename
        or replace one of the material). Only entries the test user does not own yet are changed:
        ssr's images give it the repo at build time (repo-image.ts), because on overlayfs (Docker)
        changing a file's owner copies the whole file into the container's own layer, and a
        `chown -R` of the repo in every fresh sandbox cost 0.3 s (pyledger) to 5 s (numeral,
        with node_modules). Without a uid (bubblewrap, a non-root pod: one user only) the
        material is only made read-only, which its owner could undo: the hashes decide.
  check <repo> <state dir>                  restore owners and modes (the repo goes back to the
        owner of its root folder when that was not the test user), hash the material again and
        print one line per file that changed, vanished or appeared: `changed <path>`,
        `removed <path>`, `added <path>`.

Test material: a code file that is a test by pytest's and the JS runners' naming (under tests/,
test/, __tests__/, test_*.py, *_test.py, conftest.py, *.test.js, *.spec.ts, ...) and the runners'
configuration by name (pytest.ini, tox.ini, setup.cfg, pyproject.toml, package.json, jest/vitest
configs, ...). Data files under tests/ are not material: a suite may write its own fixtures there.
Stdlib only; Python 3.6+.
"""
import json
import os
import re
import stat
import subprocess
import sys

_SKIP_DIRS = {".git", "node_modules", ".tox", ".nox", ".venv", "venv", "__pycache__", ".pytest_cache",
              ".mypy_cache", ".hypothesis", ".eggs", "build", "dist"}
_TEST_DIRS = {"tests", "test", "__tests__", "testing"}
_CODE = re.compile(r"\.(?:py|pyx|[cm]?[jt]sx?)$")
_TEST_NAME = re.compile(r"^(?:test_.*\.py|.+_test\.py|conftest\.py|.+\.(?:test|spec)\.[cm]?[jt]sx?)$")
_CONFIG_NAMES = {"pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", ".coveragerc", "noxfile.py",
                 "package.json", ".npmrc", ".pnp.cjs", "jsconfig.json"}
_CONFIG_RE = re.compile(
    r"^(?:(?:jest|vitest|vite|babel|ava|karma|mocha|tap|c8|nyc|swc)\.config\.[a-z]+"
    r"|vitest\.(?:workspace|projects)\.[a-z]+|\.(?:mocharc|babelrc|c8rc|nycrc|taprc|swcrc|jestrc)(?:\.[a-z]+)?"
    r"|tsconfig(?:\.[\w-]+)?\.json)$", re.I)


def is_material(relative):
    parts = relative.split("/")
    name = parts[-1]
    if name in _CONFIG_NAMES or _CONFIG_RE.match(name):
        return True
    if not _CODE.search(name):
        return False
    return bool(_TEST_NAME.match(name)) or any(part in _TEST_DIRS for part in parts[:-1])


def material(repo):
    """Repo-relative paths of the test material, sorted (regular files only; links are not followed)."""
    found = []
    for top, dirs, files in os.walk(repo):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not os.path.islink(os.path.join(top, d))]
        for name in files:
            path = os.path.join(top, name)
            relative = os.path.relpath(path, repo).replace(os.sep, "/")
            if is_material(relative) and os.path.isfile(path) and not os.path.islink(path):
                found.append(relative)
    return sorted(found)


def _sha256():
    """A new SHA-256: the interpreter's built-in one (`_sha2` from 3.12, `_sha256` before) where
    there is one, as hashlib loads OpenSSL (some 4 ms of the supervisor's start-up). Imported here,
    not at the top: the test process imports this module for is_material alone."""
    for name in ("_sha2", "_sha256"):
        try:
            return getattr(__import__(name), "sha256")()
        except (ImportError, AttributeError):
            pass
    import hashlib  # noqa: PLC0415
    return hashlib.sha256()


def digest(path):
    h = _sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


def hashes(repo):
    return {relative: digest(os.path.join(repo, relative)) for relative in material(repo)}


def _holders(repo, files):
    """Every folder holding material, up to and including the repo root."""
    dirs = {repo}
    for relative in files:
        parent = os.path.dirname(os.path.join(repo, relative))
        while parent.startswith(repo) and parent not in dirs:
            dirs.add(parent)
            parent = os.path.dirname(parent)
    return sorted(dirs)


def lock(repo, state, owner):
    before = hashes(repo)
    saved = {}
    paths = [os.path.join(repo, relative) for relative in before]
    if owner != "-":
        uid, gid = (int(part) for part in owner.split(":"))
        top = os.lstat(repo)
        dirs = _holders(repo, before)
        for path in paths + dirs:
            st = os.lstat(path)
            saved[path] = [stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid]
        saved[""] = [0, top.st_uid, top.st_gid]
        # What the test user does not own yet, not `chown -R`: see the module's docstring.
        # (-user/-group with numbers and chown -h: GNU's and busybox's alike)
        subprocess.check_call(["find", repo, "(", "!", "-user", str(uid), "-o", "!", "-group", str(gid), ")",
                               "-exec", "chown", "-h", "%d:%d" % (uid, gid), "{}", "+"])
        # Never the repo root's owner: in an image built by ssr that is the test user itself.
        keeper = (os.geteuid(), os.getegid())
        for path in paths + dirs:
            os.lchown(path, *keeper)
        for path in dirs:
            os.chmod(path, 0o1777)
    else:
        for path in paths:
            saved[path] = [stat.S_IMODE(os.lstat(path).st_mode), -1, -1]
    for path in paths:
        os.chmod(path, saved[path][0] & ~0o222)
    with open(os.path.join(state, "before"), "w") as handle:
        json.dump({"hashes": before, "saved": saved, "owner": owner}, handle)


def check(repo, state):
    with open(os.path.join(state, "before")) as handle:
        data = json.load(handle)
    saved, owner = data["saved"], data["owner"]
    if owner != "-":
        top = "%d:%d" % tuple(saved.pop("")[1:])
        if top != owner:
            subprocess.call(["chown", "-R", "--no-dereference", "--from=%s" % owner, top, repo])
    for path, (mode, uid, gid) in saved.items():
        try:
            if uid >= 0:
                os.lchown(path, uid, gid)
            os.chmod(path, mode)
        except OSError:
            pass  # gone: reported below
    before, after = data["hashes"], hashes(repo)
    lines = []
    for relative in sorted(set(before) | set(after)):
        if relative not in after:
            lines.append("removed " + relative)
        elif relative not in before:
            lines.append("added " + relative)
        elif before[relative] != after[relative]:
            lines.append("changed " + relative)
    return lines


def main(argv):
    if len(argv) == 4 and argv[0] == "lock":
        lock(os.path.realpath(argv[1]), argv[2], argv[3])
        return 0
    if len(argv) == 3 and argv[0] == "check":
        for line in check(os.path.realpath(argv[1]), argv[2]):
            print(line)
        return 0
    sys.stderr.write("usage: ssr_test_material.py lock <repo> <state> <uid:gid|-> | check <repo> <state>\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
