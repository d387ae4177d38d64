import { execFileSync } from 'node:child_process';
import { createHmac, createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessAssetDir } from '../../../src/harness/default-files.js';

/**
 * The guard's own cost inside the pytest process, counted (not timed, so load cannot move it):
 * Python line events of the check that runs before every test's report, realpath calls when
 * collection ends, and what importing the material helper costs. One interpreter (the host's
 * python3 with Debian's pytest, as scripts/setup-host installs it) prints every count as JSON.
 */
const PROBE = String.raw`
import json, os, sys
sys.path.insert(0, sys.argv[1])
root = sys.argv[2]
out = {}
import ssr_test_material
out["hashlib_at_import"] = "hashlib" in sys.modules

import _pytest.runner
import ssr_guard_audit, ssr_guard_code, ssr_grading_guard as guard

class Config:
    class invocation_params:
        dir = root

# The check before every call-phase report: count the Python lines it runs over about a thousand entries.
rec = guard._Recorder(Config, guard._snapshot(), lambda message: None)
streamed = []
rec._stream = lambda tampered, foreign=(): streamed.extend(tampered)
rec._runner_check()  # builds the view
lines = []
def tracer(frame, event, arg):
    if event == "line":
        lines.append(frame.f_code.co_name)
    return tracer
sys.settrace(tracer)
rec._runner_check()
sys.settrace(None)
out["check_lines"] = len(lines)
out["entries"] = len(rec.fast[0] if isinstance(rec.fast, tuple) else rec.fast)

# A replacement from repo code that claims to equal what it replaces is still seen (identity only).
class Liar:
    def __eq__(self, other):
        return True
    __hash__ = object.__hash__
code = compile("def call_and_report(*a, **k):\n    return Liar()\n", os.path.join(root, "pkg.py"), "exec")
space = {"Liar": Liar}
exec(code, space)
saved = _pytest.runner.call_and_report
_pytest.runner.call_and_report = space["call_and_report"]
rec._runner_check()
_pytest.runner.call_and_report = saved
out["streamed"] = streamed

# When collection ends, realpath only for modules that could be a test file.
calls = []
real, in_repo_code = ssr_guard_audit.helpers(root)
facts = {"root": root, "pristine": {"tests/test_probe.py": b""}, "bytecode_read": frozenset(),
         "relative": lambda path: calls.append(path) or real(path), "in_repo_code": in_repo_code}
ssr_guard_code.changed_test_code(None, [], facts)
out["relative_calls"] = len(calls)
out["modules"] = len(sys.modules)
print(json.dumps(out))
`;

describe('the guard’s cost in the pytest process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-guard-cost-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const probe = join(dir, 'probe.py');
  writeFileSync(probe, PROBE);
  const counts = JSON.parse(execFileSync('/usr/bin/python3', ['-B', probe, harnessAssetDir('guard'), dir], { encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } })) as {
    hashlib_at_import: boolean;
    check_lines: number;
    entries: number;
    streamed: string[];
    relative_calls: number;
    modules: number;
  };

  it('checks the runner’s machinery before each report in a constant number of Python lines, not one per entry, and still by identity', () => {
    expect(counts.entries).toBeGreaterThan(500);
    expect(counts.check_lines).toBeLessThan(20);
    // A rebinding from repo code whose replacement claims to equal the original is still reported.
    expect(counts.streamed).toEqual(['_pytest.runner.call_and_report']);
  });

  it('resolves real paths only of modules that could be a test file when collection ends', () => {
    expect(counts.modules).toBeGreaterThan(100);
    expect(counts.relative_calls).toBeLessThan(5);
  });

  it('imports no hashlib into the test process for the material helper', () => {
    expect(counts.hashlib_at_import).toBe(false);
  });

  it('signs and hashes with the interpreter’s built-in SHA-256 in the supervisor: no OpenSSL at its start, the same HMAC', () => {
    // As the driver starts it (-I -S); the material helper is what the supervisor's lock and check load.
    const code = String.raw`
import json, sys
sys.path.insert(0, sys.argv[1])
import ssr_guard_supervisor, ssr_test_material
mac = ssr_guard_supervisor.hmac_sha256(sys.argv[2].encode(), b'{"body": 1}')
digest = ssr_test_material.digest(sys.argv[3])
print(json.dumps({"mac": mac, "digest": digest, "loaded": sorted(m for m in ("hashlib", "hmac", "_hashlib") if m in sys.modules)}))
`;
    const key = 'ab'.repeat(32);
    const out = JSON.parse(execFileSync('/usr/bin/python3', ['-I', '-S', '-B', '-c', code, harnessAssetDir('guard'), key, probe], { encoding: 'utf8' })) as { mac: string; digest: string; loaded: string[] };
    expect(out.loaded).toEqual([]);
    expect(out.mac).toBe(createHmac('sha256', key).update('{"body": 1}').digest('hex'));
    expect(out.digest).toBe(createHash('sha256').update(readFileSync(probe)).digest('hex'));
  });
});
