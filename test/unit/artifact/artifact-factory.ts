import type { BugArtifact } from '../../../src/artifact/bug-artifact.js';

/** A small well-formed artifact; override any field. */
export function makeArtifact(overrides: Partial<BugArtifact> = {}): BugArtifact {
  return {
    bugInject: 'diff --git a/pkg/mod.py b/pkg/mod.py\n--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1 +1 @@\n-return x + 1\n+return x - 1\n',
    testWeaken: 'diff --git a/tests/test_mod.py b/tests/test_mod.py\n--- a/tests/test_mod.py\n+++ b/tests/test_mod.py\n@@ -1,2 +1 @@\n def test_f():\n-    assert f(1) == 2\n',
    testFiles: ['tests/test_mod.py'],
    testScript: '#!/bin/bash\npytest -rA tests/test_mod.py\n',
    testParser: 'import json, sys\nprint(json.dumps({}))\n',
    ...overrides,
  };
}
