import { describe, expect, it } from 'vitest';
import { encodePrepareSteps, readPrepareFailure } from '../../../src/harness/prepare-steps.js';

const decode = (line: string): string => Buffer.from(line.slice(2), 'base64').toString('utf8');

describe('encodePrepareSteps', () => {
  it('writes one line per step, diffs ending in a newline, paths normalised', () => {
    const lines = encodePrepareSteps([{ apply: 'diff --git a/x b/x', label: 'l' }, { revert: '/repo/pkg/./mod.py' }, { apply: '', label: 'empty' }]).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]!.startsWith('A ')).toBe(true);
    expect(decode(lines[0]!)).toBe('diff --git a/x b/x\n');
    expect(lines[1]!.startsWith('R ')).toBe(true);
    expect(decode(lines[1]!)).toBe('pkg/mod.py');
    expect(lines[2]).toBe('A ');
    expect(lines[3]).toBe('');
  });

  it('refuses a path that leaves the repository or points into .git', () => {
    expect(() => encodePrepareSteps([{ revert: '../etc/passwd' }])).toThrow(/leaves the repository/);
    expect(() => encodePrepareSteps([{ revert: '.git/config' }])).toThrow(/points into .git/);
  });
});

describe('readPrepareFailure', () => {
  it('reads the failed step, its exit code and output', () => {
    const out = ['noise', 'SSR-PREPARE-FAILED 2 1', Buffer.from('error: patch failed').toString('base64'), ''].join('\n');
    expect(readPrepareFailure(out)).toEqual({ step: 2, exitCode: 1, output: 'error: patch failed' });
  });

  it('is undefined for a driver output without a failed step, or a malformed one', () => {
    expect(readPrepareFailure('SSR-RESULT 0 0 1 0 0 1 10 2\n')).toBeUndefined();
    expect(readPrepareFailure('SSR-PREPARE-FAILED x y\n')).toBeUndefined();
  });
});
