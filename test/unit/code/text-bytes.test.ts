import { describe, expect, it } from 'vitest';
import { findNonTextBytes } from '../../../src/code/text-bytes.js';

describe('findNonTextBytes', () => {
  it.each([
    ['ascii', [0x61, 0x0a], null],
    ['2-byte é', [0xc3, 0xa9], null],
    ['3-byte €', [0xe2, 0x82, 0xac], null],
    ['4-byte emoji', [0xf0, 0x9f, 0x98, 0x80], null],
    ['NUL', [0x61, 0x00], { byte: 1, reason: 'nul' }],
    ['lone continuation byte', [0x61, 0x80], { byte: 1, reason: 'invalid-utf8' }],
    ['overlong encoding', [0xc0, 0x80], { byte: 0, reason: 'invalid-utf8' }],
    ['overlong 3-byte', [0xe0, 0x80, 0x80], { byte: 0, reason: 'invalid-utf8' }],
    ['UTF-16 surrogate', [0xed, 0xa0, 0x80], { byte: 0, reason: 'invalid-utf8' }],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], { byte: 0, reason: 'invalid-utf8' }],
    ['truncated sequence', [0x61, 0xe2, 0x82], { byte: 1, reason: 'invalid-utf8' }],
    ['bad continuation', [0xe2, 0x28, 0xa1], { byte: 1, reason: 'invalid-utf8' }],
    ['latin-1 byte', [0x63, 0x61, 0x66, 0xe9], { byte: 3, reason: 'invalid-utf8' }],
  ])('%s', (_name, bytes, expected) => {
    expect(findNonTextBytes(Uint8Array.from(bytes))).toEqual(expected);
  });

  it('agrees with a fatal TextDecoder on random bytes', () => {
    let seed = 42;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 8) & 0xff;
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for (let round = 0; round < 5000; round++) {
      // Bias towards high bytes so multi-byte sequences (valid and not) are common.
      const bytes = Uint8Array.from({ length: 1 + (round % 9) }, () => (random() % 3 === 0 ? random() & 0x7f : 0x80 | random()));
      let valid = !bytes.includes(0);
      try {
        decoder.decode(bytes);
      } catch {
        valid = false;
      }
      expect(findNonTextBytes(bytes) === null, Buffer.from(bytes).toString('hex')).toBe(valid);
    }
  });
});
