import { describe, expect, it } from 'vitest';
import { applyEdit, splitText } from '../../../src/tools/line-match.js';
import { numberedSnippet } from '../../../src/tools/numbered-snippet.js';

const FILE = ['def add(a, b):', '    return a + b', '', '', 'def sub(a, b):', '    return a - b', ''].join('\n');

describe('applyEdit', () => {
  it.each<[string, string, string, string]>([
    ['one line', FILE, '    return a + b', '    return b + a'],
    ['several lines, trailing newline in search optional', FILE, 'def sub(a, b):\n    return a - b\n', 'def sub(a, b):\n    return b - a\n'],
    ['delete lines (empty replace)', FILE, 'def sub(a, b):\n    return a - b', ''],
    ['insert lines', FILE, 'def add(a, b):', '@decorator\ndef add(a, b):'],
  ])('edits: %s', (_name, text, search, replace) => {
    const outcome = applyEdit(text, search, replace);
    expect(outcome.status).toBe('edited');
    if (outcome.status !== 'edited') return;
    const replaced = search.replace(/\n$/, '');
    const by = replace.replace(/\n$/, '');
    expect(outcome.text).toBe(by === '' ? text.replace(`${replaced}\n`, '') : text.replace(replaced, by));
    expect(outcome.lines).toEqual(splitText(outcome.text).lines);
  });

  it('keeps CRLF line endings and a missing final newline', () => {
    const outcome = applyEdit('a\r\nb\r\nc', 'b', 'B1\nB2');
    expect(outcome).toMatchObject({ status: 'edited', text: 'a\r\nB1\r\nB2\r\nc', start: 2, end: 3, removed: 1 });
  });

  it('reports where the replacement sits', () => {
    expect(applyEdit(FILE, 'def sub(a, b):\n    return a - b', 'x')).toMatchObject({ start: 5, end: 5, removed: 2 });
    expect(applyEdit(FILE, 'def sub(a, b):\n    return a - b', '')).toMatchObject({ start: 5, end: 4, removed: 2 });
  });

  it.each<[string, string, string, RegExp]>([
    ['indentation differs', '  return a + b', 'x', /whitespace is ignored at lines 2\.\.2; copy the exact indentation/],
    ['inner spacing differs', 'def add(a,  b):\n    return a + b', 'x', /whitespace is ignored at lines 1\.\.2/],
    ['part of a line', 'return a', 'x', /occurs at line 2 but not as whole lines/],
    ['spans lines without being whole', 'a + b\n\n\ndef sub', 'x', /occurs at line 2 but not as whole lines/],
    ['later line differs', 'def add(a, b):\n    return a * b', 'x', /search line 2 differs from line 2:\n {2}file: {3}" {4}return a \+ b"\n {2}search: " {4}return a \* b"/],
    ['runs past the end', '    return a - b\nextra', 'x', /search lines 1\.\.1 match lines 6\.\.6, but search line 2 differs from line 7:\n {2}file: {3}"<end of file>"/],
    ['nothing similar', 'class Nope:', 'x', /no line of the file equals the first search line/],
  ])('no match (%s) says why', (_name, search, replace, hint) => {
    const outcome = applyEdit(FILE, search, replace);
    expect(outcome.status).toBe('no-match');
    if (outcome.status === 'no-match') expect(outcome.hint).toMatch(hint);
  });

  it.each<[string, string, string, string, object]>([
    ['several matches list their lines', FILE, '\n', 'x', { status: 'multiple', lines: [3, 4] }],
    ['several matches of a block', 'a\nb\na\nb\n', 'a\nb', 'x', { status: 'multiple', lines: [1, 3] }],
    ['empty search', FILE, '', 'x', { status: 'empty-search' }],
    ['replace equal to search', FILE, '    return a + b\n', '    return a + b', { status: 'unchanged' }],
  ])('%s', (_name, text, search, replace, expected) => {
    expect(applyEdit(text, search, replace)).toEqual(expected);
  });
});

describe('numberedSnippet', () => {
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  it.each<[number, number, number, number]>([
    [10, 10, 6, 14],
    [1, 2, 1, 6],
    [19, 20, 15, 20],
    [5, 4, 1, 8], // an empty region (deleted lines) still shows its surroundings
  ])('lines %i..%i show %i..%i', (from, to, first, last) => {
    const shown = numberedSnippet(lines, from, to).split('\n');
    expect(shown[0]).toMatch(new RegExp(`^ *${first}\tline ${first}$`));
    expect(shown.at(-1)).toMatch(new RegExp(`^ *${last}\tline ${last}$`));
    expect(shown).toHaveLength(last - first + 1);
  });
});
