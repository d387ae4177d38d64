import { describe, expect, it } from 'vitest';
import { memoKey, memoOf, type DiscoveryMemo } from '../../../../src/policy/procedural/injector/discovery-memo.js';

const SHA = 'a0fcf854bb26b37599c51843decfcb341a864f73';
const settings = { runner: 'pytest', coverage: true, maxRunS: 90 };

describe('discovery memo key', () => {
  it('is the commit, the hash of the changes and interpreters, and what discovery was asked to do', () => {
    const listing = `@@files 12\n@@py 10 200 pkg/a.py\n@@tree ${SHA} 0123456789abcdef\n`;
    expect(memoKey(listing, settings)).toBe(`${SHA} 0123456789abcdef pytest coverage=true max=90`);
    // Another environment or tree, another key; no tree line (not a git checkout): no memo at all.
    expect(memoKey(listing.replace('0123456789abcdef', 'fedcba9876543210'), settings)).not.toBe(memoKey(listing, settings));
    expect(memoKey(listing, { ...settings, coverage: false })).not.toBe(memoKey(listing, settings));
    expect(memoKey('@@files 12\n@@tree  d41d8cd98f00b204\n', settings)).toBeNull();
  });

  it('finds a memo only under its key', () => {
    const memo: DiscoveryMemo = { suite: { kind: 'pytest' }, cleanText: '@@run passed=3 failed=0', traceText: null, blob: 'H4sI' };
    const memos = new Map<string, unknown>([['k', memo]]);
    expect(memoOf(memos, 'k')).toBe(memo);
    expect(memoOf(memos, 'other')).toBeNull();
    expect(memoOf(memos, null)).toBeNull();
    expect(memoOf(undefined, 'k')).toBeNull();
  });
});
