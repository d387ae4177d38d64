/** Why some bytes are not text: a NUL byte, or a byte sequence that is not valid UTF-8. */
export interface NonTextBytes {
  /** 0-based offset of the first offending byte. */
  byte: number;
  reason: 'nul' | 'invalid-utf8';
}

/** Length of a UTF-8 sequence from its lead byte, and the minimum code point it may encode. */
function sequence(lead: number): { length: number; min: number } | null {
  if (lead < 0x80) return { length: 1, min: 0 };
  if (lead >= 0xc2 && lead <= 0xdf) return { length: 2, min: 0x80 };
  if (lead >= 0xe0 && lead <= 0xef) return { length: 3, min: 0x800 };
  if (lead >= 0xf0 && lead <= 0xf4) return { length: 4, min: 0x10000 };
  return null;
}

/**
 * The first byte that makes `bytes` not plain text, or null when it is NUL-free valid UTF-8.
 * Hand-rolled rather than `TextDecoder({ fatal: true })` because the error message must name the
 * offset, and a NUL (valid UTF-8) is the usual sign of a binary file.
 */
export function findNonTextBytes(bytes: Uint8Array): NonTextBytes | null {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead === 0) return { byte: i, reason: 'nul' };
    const seq = sequence(lead);
    if (!seq || i + seq.length > bytes.length) return { byte: i, reason: 'invalid-utf8' };
    let codePoint = seq.length === 1 ? lead : lead & (0xff >> (seq.length + 1));
    for (let k = 1; k < seq.length; k++) {
      const next = bytes[i + k]!;
      if ((next & 0xc0) !== 0x80) return { byte: i + k, reason: 'invalid-utf8' };
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    const surrogate = codePoint >= 0xd800 && codePoint <= 0xdfff;
    if (codePoint < seq.min || codePoint > 0x10ffff || surrogate) return { byte: i, reason: 'invalid-utf8' };
    i += seq.length;
  }
  return null;
}

/** Human wording of {@link NonTextBytes}, e.g. "binary data at byte 12 (NUL byte)". */
export function describeNonText(found: NonTextBytes): string {
  return `binary data at byte ${found.byte} (${found.reason === 'nul' ? 'NUL byte' : 'invalid UTF-8'})`;
}
