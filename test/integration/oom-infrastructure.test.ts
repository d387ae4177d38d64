import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadArtifactDir } from '../../src/artifact/load-artifact.js';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { gradeSolution } from '../../src/roles/grade-solution.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { isEngineError } from '../../src/util/engine-error.js';
import { dockerTemplate, exampleRepo } from '../helpers/sandboxes.js';

const VALID = fileURLToPath(new URL('../fixtures/artifacts/valid-single-file/', import.meta.url));
const BUG = readFileSync(join(VALID, 'bug_inject.diff'), 'utf8');
/** The honest fix: bug_inject.diff with its sides swapped. */
const HONEST = BUG.split('\n').map((line) => (line.startsWith('-  ') ? `+${line.slice(1)}` : line.startsWith('+  ') ? `-${line.slice(1)}` : line)).join('\n');
/** The oracle tests of the fixture (F): they pass on O. */
const ORACLE = ['test_split_evenly_keeps_every_cent', 'test_allocate_by_ratio', 'test_negative_amounts_allocate_symmetrically'].map((name) => `tests/test_money.py::TestAllocation::${name}`);

/** The honest fix, plus `code` run when `pyledger` is imported (appended to its `__init__.py`). */
function fixThenRun(code: string): string {
  return `${HONEST}diff --git a/pyledger/__init__.py b/pyledger/__init__.py
--- a/pyledger/__init__.py
+++ b/pyledger/__init__.py
@@ -26 +26,3 @@
 __version__ = "0.2.1"
+import os
+${code}
`;
}

describe('an OOM kill is infrastructure only when the engine reports it (pyledger, real Docker)', () => {
  let template: SandboxTemplate;
  let artifact: BugArtifact;
  beforeAll(async () => {
    const base = await dockerTemplate(await exampleRepo());
    // Small enough that a 1 GiB allocation is killed, large enough for pytest.
    template = { ...base, limits: { ...base.limits, memoryMb: 256 } };
    artifact = await loadArtifactDir(VALID);
  });
  const grade = (patch: string) => gradeSolution({ provider: createProvider('docker'), template, artifact, patch, originalPassing: ORACLE, testTimeoutMs: 120_000 });

  it('the honest fix alone passes under the same limits (the two cases below differ only in their last line)', async () => {
    expect(await grade(fixThenRun('pass'))).toMatchObject({ reward: 1, failingTests: [] });
  });

  it('code the kernel kills for memory: grading throws sandbox-oom (discarded, never a reward)', async () => {
    const error = await grade(fixThenRun('x = bytearray(1 << 30)')).then(() => null, (thrown: unknown) => thrown);
    expect(isEngineError(error) && { code: error.code, message: error.message }).toEqual({ code: 'sandbox-oom', message: expect.stringMatching(/killed 1 process\(es\) .* for memory/) });
  });

  it('code that kills its own test run with SIGKILL (exit 137): a plain −1, not infrastructure', async () => {
    const verdict = await grade(fixThenRun('os.kill(os.getpid(), 9)'));
    expect(verdict).toMatchObject({ reward: -1, applied: 'git-apply', failingTests: [...ORACLE].sort() });
  });
});
