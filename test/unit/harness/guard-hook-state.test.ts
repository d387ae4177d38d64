import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessAssetDir } from '../../../src/harness/default-files.js';

/**
 * The audit hook keeps its state out of reach, and the supervisor notices a hook that went quiet.
 * One interpreter (the host's python3) installs the real hook on a socket pair in a tiny repo, runs
 * "repository code" (compiled under a repo file's name) that reaches for the guard, and feeds
 * what the socket carried to the real Supervisor; a second part feeds the Supervisor streams
 * with a beat missing or messages lost. Prints everything as JSON.
 */
const PROBE = String.raw`
import json, os, socket, sys
guard_dir, root = sys.argv[1], sys.argv[2]
sys.path.insert(0, guard_dir)
os.chdir(root)
ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
os.environ["SSR_GUARD_FD"] = str(theirs.fileno())
import ssr_guard_audit, ssr_guard_supervisor
assert ssr_guard_audit.install()
out = {"module_state": sorted(k for k, v in vars(ssr_guard_audit).items() if isinstance(v, (set, dict, list)) and not k.startswith("__") and not k.isupper() and not k.startswith("_PATH") and not k.startswith("_REPO"))}
# Rebinding the module's globals (or a builtin) later changes nothing the hook does.
ssr_guard_audit.is_material = lambda rel: False
sys.modules.pop("ssr_guard_audit")
REPO_CODE = '''
import gc, sys
import ssr_guard_audit as fresh
fresh._state = {"busy": True}
gc.get_objects()

class Sneaky:
    def __getattr__(self, name):
        # Called by the hook as it looks at what the assignment below replaces: inside the hook.
        sys._getframe()
        open("tests/test_x.py", "a").close()
        raise AttributeError(name)

class TestThing:  # a class of a test module (below), as the hook sees it
    __doc__ = Sneaky()

TestThing.__module__ = "tests.test_x"
TestThing.__doc__ = "replaced"
'''
test_module = type(sys)("tests.test_x")
test_module.__file__ = os.path.join(root, "tests", "test_x.py")
sys.modules["tests.test_x"] = test_module
exec(compile(REPO_CODE, os.path.join(root, "pkg", "sneaky.py"), "exec"), {})
facts = ssr_guard_audit.facts("end")
out["facts_keys"] = sorted(facts)
out["pristine"] = sorted(facts["pristine"])
theirs.close()
sup = ssr_guard_supervisor.Supervisor(b"k", root)
data = b""
ours.setblocking(False)
try:
    while True:
        chunk = ours.recv(65536)
        if not chunk:
            break
        data += chunk
except BlockingIOError:
    pass
pid = os.getpid()
sup.receive(pid, json.dumps({"t": "start", "pid": pid}).encode())
for line in data.split(b"\n"):
    if line:
        sup.receive(pid, line)
sup.receive(pid, json.dumps({"t": "end", "pid": pid, "exitstatus": 0}).encode())
out["live"] = sorted(set(sup.tampered + sup.sessions[pid]["tampered"]))

def stream(*messages):
    sup = ssr_guard_supervisor.Supervisor(b"k", root)
    for m in ({"t": "start"},) + messages + ({"t": "end", "exitstatus": 0},):
        sup.receive(7, json.dumps(dict(m, pid=7)).encode())
    return sorted(sup.sessions[7]["tampered"])
out["no_beat"] = stream({"t": "report", "id": "a", "when": "call", "phase": "passed"})
out["lost"] = stream({"t": "tamper", "what": "x", "seq": 1}, {"t": "beat", "at": "end", "seq": 3})
out["whole"] = stream({"t": "tamper", "what": "x", "seq": 1}, {"t": "beat", "at": "collected", "seq": 2}, {"t": "beat", "at": "end", "seq": 3})
print(json.dumps(out))
`;

describe('the audit hook’s state, and a hook that goes quiet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-guard-state-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'tests'));
  mkdirSync(join(dir, 'pkg'));
  writeFileSync(join(dir, 'tests', 'test_x.py'), 'def test_x():\n    pass\n');
  writeFileSync(join(dir, 'probe.py'), PROBE);
  const out = JSON.parse(execFileSync('/usr/bin/python3', ['-B', join(dir, 'probe.py'), harnessAssetDir('guard'), dir], { encoding: 'utf8' })) as Record<string, string[]>;

  it('keeps no mutable state in the module, and reports repo code that reaches for the guard or runs inside its hook, whatever the module says later', () => {
    expect(out.module_state).toEqual([]);
    expect(out.pristine).toEqual(['tests/test_x.py']);
    expect(out.facts_keys).toEqual(['bytecode_read', 'pristine', 'root', 'send']);
    expect(out.live).toEqual([
      'guard-probed:gc.get_objects by pkg/sneaky.py',
      'guard-probed:import ssr_guard_audit by pkg/sneaky.py',
      // Code the hook itself ran (a __getattr__ of what a test class held): watched too, and its frame is a probe.
      'guard-probed:sys._getframe inside the audit hook',
      'test-file-write:tests/test_x.py',
    ]);
  });

  it('holds a session whose hook sent no beat before its end, or lost messages, to be silenced', () => {
    expect(out.no_beat).toEqual(["guard-silent:no beat from the audit hook before the session's end"]);
    expect(out.lost).toEqual(['guard-silent:the audit hook sent 3 messages before its beat at end, 2 arrived']);
    expect(out.whole).toEqual([]);
  });
});
