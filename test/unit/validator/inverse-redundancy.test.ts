import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inverseRedundancyOfDir } from '../../../src/cli/artifact-dir-kind.js';
import { inverseRedundancyCheck } from '../../../consistency-checks/inverse-redundancy.js';
import type { StatusMap } from '../../../src/harness/test-report.js';
import { partsTogether } from '../../../src/mining/judge-commit.js';
import type { ValidationContext } from '../../../src/validator/check-types.js';
import { inverseRedundancyFor, type InverseRedundancyMode } from '../../../src/validator/inverse-redundancy-mode.js';
import { contextWithRuns, ran } from './check-context.js';

const hunk = (path: string) => `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-x = 1\n+x = 2\n`;
const T = 'tests/test_a.py::test_fix';

/** A two-file bug: the buggy run fails T; reverting a file alone gives the map named for it. */
function twoFileBug(reverted: Record<'lib/a.py' | 'lib/b.py', StatusMap>, mode?: InverseRedundancyMode): ValidationContext {
  const base = contextWithRuns({ artifact: { bugInject: hunk('lib/a.py') + hunk('lib/b.py') }, runs: { original: { [T]: 'passed' }, buggy: { [T]: 'failed' } } });
  return {
    ...base,
    run: async (state) => (state.startsWith('inverse:') ? ran(reverted[state.slice('inverse:'.length) as 'lib/a.py']) : base.run(state)),
    ...(mode ? { inverseRedundancy: mode } : {}),
  };
}

// A fix whose two files only fix the test together (a function and its caller): reverting either alone still fails it.
const together = { 'lib/a.py': { [T]: 'failed' }, 'lib/b.py': { [T]: 'failed' } } as const;

describe('inverse redundancy on a multi-file bug', () => {
  it('rejects files that fix nothing alone by default and under enforce: an injected bug padded with them', async () => {
    for (const mode of [undefined, 'enforce'] as const) {
      const verdict = await inverseRedundancyCheck.run(twoFileBug(together, mode));
      expect(verdict.status).toBe('fail');
      expect(verdict.reason).toMatch(/reverting lib\/a\.py, lib\/b\.py alone fixes none of the 1 failing test/);
    }
  });

  it('keeps a real fix whose files only fix the bug together, and records which files and why', async () => {
    const verdict = await inverseRedundancyCheck.run(twoFileBug(together, 'record'));
    expect(verdict.status).toBe('pass');
    expect(verdict.reason).toMatch(/reverting lib\/a\.py, lib\/b\.py alone fixes none .*kept as a real fix whose files fix the bug together/);
    expect(verdict.evidence).toMatchObject({ enforced: false, redundantFiles: ['lib/a.py', 'lib/b.py'], fixedByReverting: { 'lib/a.py': 0, 'lib/b.py': 0 } });
    expect(partsTogether([{ name: 'inverse-redundancy', ...verdict, durationMs: 1 }])).toEqual(['lib/a.py', 'lib/b.py']);
  });

  it('a bug each of whose files fixes a test alone passes in both modes, with nothing recorded', async () => {
    const each = { 'lib/a.py': { [T]: 'passed' }, 'lib/b.py': { [T]: 'passed' } } as const;
    for (const mode of ['enforce', 'record'] as const) {
      const verdict = await inverseRedundancyCheck.run(twoFileBug(each, mode));
      expect(verdict.status).toBe('pass');
      expect(partsTogether([{ name: 'inverse-redundancy', ...verdict, durationMs: 1 }])).toEqual([]);
    }
  });

  it('only real fixes (mined bugs) are recorded; every other kind is enforced', () => {
    expect(inverseRedundancyFor('mined')).toBe('record');
    for (const kind of ['revert-commit', 'remove-function-body', 'external', 'anchor', undefined, null]) expect(inverseRedundancyFor(kind)).toBe('enforce');
  });

  it('ssr validate --artifact on a mined bug dir checks it as ssr mine did; a bare artifact dir or another bug dir is enforced', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ssr-artifact-kind-'));
    try {
      const dir = async (name: string, metadata?: string) => {
        await mkdir(join(root, name));
        if (metadata !== undefined) await writeFile(join(root, name, 'metadata.json'), metadata);
        return join(root, name);
      };
      expect(await inverseRedundancyOfDir(await dir('mined', JSON.stringify({ strategy: 'mined', repo: 'h11' })))).toBe('record');
      expect(await inverseRedundancyOfDir(await dir('injected', JSON.stringify({ strategy: 'removal' })))).toBe('enforce');
      expect(await inverseRedundancyOfDir(await dir('bare'))).toBe('enforce');
      expect(await inverseRedundancyOfDir(await dir('garbled', '{not json'))).toBe('enforce');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
