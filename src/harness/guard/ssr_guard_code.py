"""ssr's grading guard: the test code that runs is what the pristine test files compile to.

ssr_guard_audit.py read every Python test file before any repository code ran; the plugin gets a
copy from the audit hook when collection ends (the beat: `facts` below). Then each loaded test module's source is compiled again, as pytest compiled it (with its
assertion rewriting when the module was loaded through pytest's rewriting hook), and every
function of the module and of its classes, and every collected test, is held to it: same
bytecode, names and constants, recursively through nested code. A test module that was rewritten
on disk before pytest imported it, a test function whose code was swapped, a helper turned into a
no-op, a module attribute pointed at package code, a test module loaded from bytecode planted in a
__pycache__ folder: each is `test-code-replaced:<file>::<name>`.
Stdlib and pytest only.
"""
import ast
import os
import sys

from ssr_guard_audit import helpers


def _same_const(a, b):
    if hasattr(a, "co_code") and hasattr(b, "co_code"):
        return same_code(a, b)
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same_const(x, y) for x, y in zip(a, b))
    return a == b or (a != a and b != b)  # NaN equals itself here


def same_code(a, b):
    """Whether two code objects compile the same thing (bytecode, names, constants, recursively)."""
    return (a.co_code == b.co_code and a.co_names == b.co_names and a.co_varnames == b.co_varnames
            and a.co_freevars == b.co_freevars and len(a.co_consts) == len(b.co_consts)
            and all(_same_const(x, y) for x, y in zip(a.co_consts, b.co_consts)))


def _index(code, found):
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            found.setdefault((const.co_name, const.co_firstlineno), []).append(const)
            _index(const, found)
    return found


def _pristine(module, rel, config, source):
    """(code index, plain top-level defs) of the module's pristine source, as pytest compiles it."""
    path = module.__file__
    tree = ast.parse(source, path)
    plain = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.decorator_list}
    try:
        from _pytest.assertion.rewrite import AssertionRewritingHook, rewrite_asserts
    except ImportError:  # an old pytest: compare without rewriting
        AssertionRewritingHook = None
    if AssertionRewritingHook is not None and isinstance(getattr(module, "__loader__", None), AssertionRewritingHook):
        rewrite_asserts(tree, source, path, config)
    return _index(compile(tree, path, "exec", dont_inherit=True), {}), plain


def _functions(module):
    """(qualified name, function) of the module's globals and of the classes it defines."""
    for name, value in list(vars(module).items()):
        if isinstance(value, type) and value.__module__ == module.__name__:
            for attr, member in list(vars(value).items()):
                member = getattr(member, "__func__", member)
                if hasattr(member, "__code__"):
                    yield "%s.%s" % (name, attr), member
        elif hasattr(value, "__code__"):
            yield name, value


def _writable(filename):
    """Whether this process could have rewritten the file (one user only): then pytest may have
    compiled other text than the pristine one, and every function is compiled again to compare."""
    try:
        return os.access(filename, os.W_OK) or os.stat(filename).st_uid == os.getuid()
    except OSError:
        return True


def _module_changes(module, rel, config, facts):
    filename = module.__file__
    source = facts["pristine"][rel]
    if not _writable(filename) and rel not in facts["bytecode_read"]:
        # Read-only and not ours (Docker: the lock), and no cached bytecode read for it (a .pyc
        # the tests could plant in a __pycache__ of their own): pytest compiled the pristine text. Swapped
        # code is left to the audit hook (`__code__`, compile as a test file); here only names
        # of plain defs pointed at code elsewhere.
        tree = ast.parse(source, filename)
        plain = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.decorator_list}
        return ["test-code-replaced:%s::%s" % (rel, name) for name, func in _functions(module) if name in plain and func.__code__.co_filename != filename]
    index, plain = _pristine(module, rel, config, source)
    changed = []
    for name, func in _functions(module):
        code = func.__code__
        if code.co_filename != filename:
            # Defined elsewhere: an import, or a plain def of this file pointed at other code.
            if name in plain:
                changed.append(name)
            continue
        if not any(same_code(code, other) for other in index.get((code.co_name, code.co_firstlineno), [])):
            changed.append(name)
    return ["test-code-replaced:%s::%s" % (rel, name) for name in changed]


def _may_be_test_file(filename, names, root):
    """False only when `filename` cannot resolve to a test file: it is not a link and its name is
    none of theirs (a path keeps its last name through realpath unless that name is a link). Skips
    a realpath, a few system calls, for each of the hundreds of modules a pytest process holds."""
    if type(filename) is not str:  # a str subclass's methods could lie about its name
        return True
    name = os.path.basename(filename)
    return name in names or name in ("", ".", "..") or os.path.islink(os.path.join(root, filename))


def changed_test_code(config, items, facts):
    """Tampering entries for test code that is not what its pristine file compiles to. `facts`: the
    audit hook's answer to the beat (root, pristine sources, bytecode read); `relative` and
    `in_repo_code` may be given too (else made for the root)."""
    changes = []
    pristine, root = facts["pristine"], facts["root"]
    relative, in_repo_code = facts.get("relative"), facts.get("in_repo_code")
    if relative is None or in_repo_code is None:
        relative, in_repo_code = helpers(root)
    names = {rel.rsplit("/", 1)[-1] for rel in pristine}
    for module in list(sys.modules.values()):
        filename = getattr(module, "__file__", None)
        rel = relative(filename) if filename and _may_be_test_file(filename, names, root) else None
        if rel in pristine:
            changes.extend(_module_changes(module, rel, config, facts))
    for item in items:
        func = getattr(item, "obj", None)
        code = getattr(func, "__code__", None)
        if code is None:
            continue
        # A collected test that runs repository code that is not a test: swapped in.
        if in_repo_code(code.co_filename):
            changes.append("test-code-replaced:%s" % item.nodeid)
    return sorted(set(changes))
