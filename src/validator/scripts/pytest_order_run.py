"""The pytest half of the order-independence run: some tests each alone, then all in reverse order.

Usage: python3 pytest_order_run.py <k> <k ids to run alone> <ids to run in reverse order>

Each run is what `python3 -m pytest -p no:cacheprovider -p no:randomly <args>` in the working
directory does, in a process of its own: a child forked from this one runs pytest's __main__ as
__main__ (runpy, as `-m` does), with sys.path[0] the working directory and sys.argv[0] pytest's
__main__.py. Only pytest's own import is shared, done once here before any test code is loaded:
it is a third of a second per process, and the repo, its conftest files and its tests are
imported in each child afresh, as in a new interpreter. A child leaves through the interpreter's
own exit (SystemExit, atexit, thread joins), so its exit status is the one `python3 -m pytest`
would give.

Output, the contract of order_parser.py: `@@ssr-alone <exit> <id>` per test run alone (its own
output is discarded), then `@@ssr-reversed-start`, the reverse-order run's output (-rA),
`@@ssr-reversed-end <exit>`. Exit statuses as bash reports them: 128+n for a signal.

Written for any Python 3 a repo image may have (no f-strings, no walrus).
"""
import os
import runpy
import sys

OPTIONS = ["-p", "no:cacheprovider", "-p", "no:randomly"]


def run_pytest(args, quiet):
    """Fork; the child runs pytest and never returns here; the parent returns its exit status."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        if quiet:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
        else:
            os.dup2(1, 2)
        sys.argv = ["-m"] + args
        # SystemExit (or any exception) leaves through the interpreter, as in `python3 -m pytest`:
        # no handler of this script stands between the child and its exit.
        runpy.run_module("pytest", run_name="__main__", alter_sys=True)
        sys.exit(0)
    _, status = os.waitpid(pid, 0)
    return 128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


if __name__ == "__main__":
    # As `python3 -m` has it, before pytest is imported: a repo's own modules come first.
    sys.path[0] = os.getcwd()
    try:
        import pytest  # noqa: F401  (the import shared by every child)
    except ImportError:
        pass  # each child then fails as `python3 -m pytest` would, and says why
    count = int(sys.argv[1])
    alone = sys.argv[2 : 2 + count]
    every = sys.argv[2 + count :]
    for test_id in alone:
        code = run_pytest(OPTIONS + ["-q", test_id], quiet=True)
        print("@@ssr-alone %d %s" % (code, test_id))
    print("@@ssr-reversed-start")
    code = run_pytest(OPTIONS + ["-rA"] + every, quiet=False)
    print("@@ssr-reversed-end %d" % code)
    sys.stdout.flush()
