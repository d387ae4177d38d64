import { describe, expect, it } from 'vitest';
import { lineEditBetween } from '../../../../src/policy/procedural/injector/line-edit.js';
import { applyEdit } from '../../../../src/tools/line-match.js';

/** The edit must be accepted by the real edit tool logic and turn `before` into `after`. */
function roundTrip(before: string, after: string): void {
  const edit = lineEditBetween(before, after);
  expect(edit).not.toBeNull();
  const outcome = applyEdit(before, edit!.search, edit!.replace);
  expect(outcome.status).toBe('edited');
  expect(outcome.status === 'edited' && outcome.text).toBe(after);
}

describe('lineEditBetween', () => {
  it.each([
    ['one changed line', 'a = 1\nb = 2\nc = 3\n', 'a = 1\nb = 3\nc = 3\n'],
    ['deleted lines', 'def f():\n    x = 1\n    y = 2\n    return x\n', 'def f():\n    x = 1\n    return x\n'],
    ['inserted line', 'a\nb\n', 'a\nnew\nb\n'],
    ['a repeated line needs context', 'x = 0\nif a:\n    x = 0\nif b:\n    x = 0\n', 'x = 0\nif a:\n    x = 1\nif b:\n    x = 0\n'],
    ['replace with one blank line', 'a\nb\nc\n', 'a\n\nc\n'],
    ['ends in a blank line', 'a\nb\n\nc\n', 'a\nz\n\nc\n'],
    ['no final newline', 'a\nb', 'a\nc'],
    ['CRLF file', 'a\r\nb\r\nc\r\n', 'a\r\nx\r\nc\r\n'],
    ['delete the first line', 'import os\nimport sys\n', 'import sys\n'],
  ])('%s', (_name, before, after) => {
    roundTrip(before, after);
  });

  it('keeps the search block small when it is unique', () => {
    expect(lineEditBetween('a\nb\nc\nd\n', 'a\nb\nX\nd\n')).toEqual({ search: 'c', replace: 'X' });
  });

  it('is null for equal texts; a file of repeated lines is matched whole', () => {
    expect(lineEditBetween('a\n', 'a\n')).toBeNull();
    expect(lineEditBetween('x\nx\n', 'x\n')).toEqual({ search: 'x\nx', replace: 'x' });
  });
});
