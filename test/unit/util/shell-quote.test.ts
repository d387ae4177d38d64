import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote, shellQuoteAll } from '../../../src/util/shell-quote.js';

describe('shellQuote', () => {
  // Each word must reach a real bash command as exactly itself.
  it.each([
    'plain/path.py',
    '',
    'with space',
    "it's",
    '$(touch /tmp/pwned)',
    '`id`',
    'a"b',
    'back\\slash',
    'semi;colon && or || pipe|',
    '*.py',
    '~/home',
    'new\nline',
    'tests/test_x.py::TestA::test_b[a - b]',
    'ünïcode',
    "''",
    '-n',
  ])('round-trips %j through bash', (word) => {
    const echoed = execFileSync('bash', ['-c', `printf '%s' ${shellQuote(word)}`], { encoding: 'utf8' });
    expect(echoed).toBe(word);
  });

  it('leaves safe words bare and quotes the rest', () => {
    expect(shellQuote('src/a_b-c.py')).toBe('src/a_b-c.py');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });

  it('joins many words', () => {
    expect(execFileSync('bash', ['-c', `printf '<%s>' ${shellQuoteAll(['a b', '', 'c'])}`], { encoding: 'utf8' })).toBe('<a b><><c>');
  });

  it('refuses a NUL byte, which no shell word can carry', () => {
    expect(() => shellQuote('a\0b')).toThrow(/NUL/);
  });
});
