import { describe, expect, it } from 'vitest';
import { STDIN_ENV_CHUNK_BYTES, STDIN_ENV_MAX_BYTES, STDIN_ENV_PREFIX, stdinAsEnv } from '../../../src/sandbox/docker/stdin-env.js';

describe('stdinAsEnv (a Docker exec’s stdin in its request)', () => {
  it('cuts text into variables under the per-string limit, never inside a character, and drops the newline the here-string adds back', () => {
    const text = `${'a'.repeat(STDIN_ENV_CHUNK_BYTES - 1)}é${'b'.repeat(STDIN_ENV_CHUNK_BYTES)}\n`;
    const sent = stdinAsEnv(text)!;
    const values = Object.values(sent.env);
    expect(Object.keys(sent.env)).toEqual([`${STDIN_ENV_PREFIX}0`, `${STDIN_ENV_PREFIX}1`, `${STDIN_ENV_PREFIX}2`]);
    expect(values.every((value) => Buffer.byteLength(value) <= STDIN_ENV_CHUNK_BYTES)).toBe(true);
    expect(`${values.join('')}\n`).toBe(text);
    expect(sent.prefix).toBe(`exec <<< "\${${STDIN_ENV_PREFIX}0}\${${STDIN_ENV_PREFIX}1}\${${STDIN_ENV_PREFIX}2}"; unset ${STDIN_ENV_PREFIX}0 ${STDIN_ENV_PREFIX}1 ${STDIN_ENV_PREFIX}2; `);
    expect(stdinAsEnv('one line\n')!.env).toEqual({ [`${STDIN_ENV_PREFIX}0`]: 'one line' });
  });

  it.each([
    ['empty', ''],
    ['without a final newline', 'no newline'],
    ['with a NUL', 'a\0b\n'],
    ['over the cap', `${'x'.repeat(STDIN_ENV_MAX_BYTES)}\n`],
    ['bytes that are not UTF-8', Buffer.from([0xff, 0xfe, 0x0a])],
  ])('leaves stdin that is %s to the file', (_name, stdin) => {
    expect(stdinAsEnv(stdin)).toBeUndefined();
  });
});
