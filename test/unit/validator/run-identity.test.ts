import { describe, expect, it } from 'vitest';
import { runIdentity, stateRunKey, type RunIdentityParts } from '../../../src/validator/run-identity.js';

const base: RunIdentityParts = {
  imageRef: 'ssr-repo-pyledger:685a8c170cac',
  commit: 'a0fcf854bb26b37599c51843decfcb341a864f73',
  artifact: { testScript: 'cd /repo && python3 -m pytest -rA tests/test_money.py\n', testParser: 'print("{}")\n' },
  testTimeoutMs: 90_000,
};
const key = (parts: RunIdentityParts, tree = 'tree-O', repeat = false): string => stateRunKey(runIdentity(parts), tree, repeat);

describe('the clean-run cache key', () => {
  it('is the same for two bugs with the same test script, parser, image, commit and limit: their O runs are shared', () => {
    expect(key({ ...base, artifact: { ...base.artifact } })).toBe(key(base));
  });

  it.each<[string, Partial<RunIdentityParts>]>([
    ['another test script (other oracle files)', { artifact: { ...base.artifact, testScript: 'cd /repo && python3 -m pytest -rA tests/test_report.py\n' } }],
    ['a test script differing in one byte', { artifact: { ...base.artifact, testScript: base.artifact.testScript.replace('-rA', '-ra') } }],
    ['another parser', { artifact: { ...base.artifact, testParser: 'print("{ }")\n' } }],
    ['another image', { imageRef: 'ssr-repo-pyledger:000000000000' }],
    ['another commit', { commit: 'b'.repeat(40) }],
    ['another time limit', { testTimeoutMs: 60_000 }],
    ['a selection environment', { env: { PYTEST_ADDOPTS: 'tests/test_money.py' } }],
  ])('misses on %s', (_name, change) => {
    expect(key({ ...base, ...change })).not.toBe(key(base));
  });

  it('misses on another tree (repo state) and keeps O’s two runs apart', () => {
    expect(key(base, 'tree-B')).not.toBe(key(base, 'tree-O'));
    expect(key(base, 'tree-O', true)).not.toBe(key(base, 'tree-O', false));
  });

  it('cannot be forged by moving text between parts (each part is length-prefixed)', () => {
    const a = { ...base, artifact: { testScript: 'ab', testParser: 'c' } };
    const b = { ...base, artifact: { testScript: 'a', testParser: 'bc' } };
    expect(key(a)).not.toBe(key(b));
  });
});
