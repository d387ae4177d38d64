import { describe, expect, it } from 'vitest';
import { OutputCap } from '../../../src/sandbox/output-cap.js';

function capture(maxBytes: number, chunks: Array<string | Buffer>): OutputCap {
  const cap = new OutputCap(maxBytes);
  for (const chunk of chunks) cap.push(Buffer.from(chunk));
  return cap;
}

const note = (dropped: number): string => `\n[... ${dropped} bytes of output dropped ...]\n`;

describe('OutputCap', () => {
  it.each([
    { name: 'empty output', max: 10, chunks: [], text: '', dropped: 0 },
    { name: 'under the cap', max: 10, chunks: ['abc', 'de'], text: 'abcde', dropped: 0 },
    { name: 'exactly the cap', max: 10, chunks: ['0123456789'], text: '0123456789', dropped: 0 },
    { name: 'one byte over', max: 10, chunks: ['0123456789X'], text: `01234${note(1)}6789X`, dropped: 1 },
    { name: 'one big chunk', max: 6, chunks: ['abcdefghijklmnop'], text: `abc${note(10)}nop`, dropped: 10 },
    { name: 'many small chunks wrapping the ring', max: 6, chunks: ['ab', 'cd', 'ef', 'gh', 'ij', 'k'], text: `abc${note(5)}ijk`, dropped: 5 },
    { name: 'odd cap: head gets the extra byte', max: 5, chunks: ['abcdefg'], text: `abc${note(2)}fg`, dropped: 2 },
    { name: 'zero cap keeps nothing', max: 0, chunks: ['abc'], text: note(3), dropped: 3 },
    { name: 'chunk spanning head and tail', max: 8, chunks: ['ab', 'cdefghijkl'], text: `abcd${note(4)}ijkl`, dropped: 4 },
  ])('$name', ({ max, chunks, text, dropped }) => {
    const cap = capture(max, chunks);
    expect(cap.text()).toBe(text);
    expect(cap.droppedBytes).toBe(dropped);
  });

  it.each([
    { name: 'invalid bytes', bytes: [0x61, 0xff, 0xfe, 0x62], text: 'a\uFFFD\uFFFDb' },
    { name: 'truncated multi-byte character', bytes: [0x61, 0xe2, 0x82], text: 'a\uFFFD' },
    { name: 'valid multi-byte characters', bytes: [...Buffer.from('héllo ✓')], text: 'héllo ✓' },
  ])('decodes $name tolerantly', ({ bytes, text }) => {
    expect(capture(100, [Buffer.from(bytes)]).text()).toBe(text);
  });

  it('holds 100 MB through a 1 KiB cap with the right head, tail and count', () => {
    const cap = new OutputCap(1024);
    const chunk = Buffer.alloc(1 << 20, 'x');
    cap.push(Buffer.from('HEAD'));
    for (let i = 0; i < 100; i++) cap.push(chunk);
    cap.push(Buffer.from('TAIL'));
    const text = cap.text();
    expect(cap.totalBytes).toBe(100 * (1 << 20) + 8);
    expect(cap.droppedBytes).toBe(cap.totalBytes - 1024);
    expect(text.startsWith('HEADxxx')).toBe(true);
    expect(text.endsWith('xxxTAIL')).toBe(true);
    expect(text.length).toBe(1024 + note(cap.droppedBytes).length);
  });

  it('holds what it captured, not the whole cap: each exec of a run makes one, and most print a few KiB', () => {
    const cap = capture(1024 * 1024, ['a few bytes']);
    expect(cap.retainedBytes).toBe('a few bytes'.length);
    const full = capture(1024, [Buffer.alloc(4096, 'x')]);
    expect(full.retainedBytes).toBe(1024);
  });

  it('rejects a negative cap', () => {
    expect(() => new OutputCap(-1)).toThrow(RangeError);
  });
});
