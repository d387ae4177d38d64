import { describe, expect, it } from 'vitest';
import { readDriverOutput } from '../../../src/harness/test-driver.js';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe('readDriverOutput', () => {
  it('decodes every section of a complete run', () => {
    const out = readDriverOutput(['noise', 'SSR-RESULT 1 0 2500000000 0 0 12000000 900 20', b64('{"a::t": "passed"}'), b64('head'), b64('tail'), ''].join('\n'));
    expect(out).toEqual({
      scriptExit: 1,
      scriptTimedOut: false,
      scriptMs: 2500,
      parserExit: 0,
      parserTimedOut: false,
      parserMs: 12,
      logBytes: 900,
      parserStdoutBytes: 20,
      parserStdout: '{"a::t": "passed"}',
      logHead: 'head',
      logTail: 'tail',
      parserStderr: '',
    });
  });

  it('decodes the second parse of the same log when the driver made one', () => {
    const out = readDriverOutput(['SSR-RESULT 0 0 1 0 0 2000000 10 2', b64('{}'), b64('log'), '', '', 'SSR-REPARSE 1 0 3000000 0', '', b64('Traceback'), ''].join('\n'));
    expect(out?.reparse).toEqual({ exit: 1, timedOut: false, ms: 3, stdoutBytes: 0, stdout: '', stderr: 'Traceback' });
    expect(readDriverOutput(['SSR-RESULT 0 0 1 0 0 1 10 2', b64('{}'), b64('log'), '', '', 'SSR-REPARSE -', '', ''].join('\n'))?.reparse).toBeUndefined();
  });

  it('decodes the guard section: records found and the ones shipped', () => {
    const base = ['SSR-RESULT 0 0 1 0 0 1 10 2', b64('{}'), b64('log'), '', '', 'SSR-REPARSE -', '', ''];
    expect(readDriverOutput([...base, 'SSR-GUARD 3 2', b64('{"body": "1"}'), b64('{"body": "2"}'), ''].join('\n'))?.guard).toEqual({ total: 3, records: ['{"body": "1"}', '{"body": "2"}'] });
    expect(readDriverOutput([...base, 'SSR-GUARD -', ''].join('\n'))?.guard).toBeUndefined();
  });

  it('marks parser stdout over the cap as missing rather than empty', () => {
    const out = readDriverOutput(['SSR-RESULT 0 0 1 0 0 1 10 99999999999', '', b64('log'), '', ''].join('\n'));
    expect(out?.parserStdout).toBeUndefined();
  });

  it.each([
    ['no result line', 'just output\n'],
    ['a truncated result', 'SSR-RESULT 0 0 1\n\n\n\n\n'],
    ['missing sections', 'SSR-RESULT 0 0 1 0 0 1 10 0\n\n'],
    ['non-numeric fields', 'SSR-RESULT a b c d e f g h\n\n\n\n\n'],
  ])('rejects %s', (_label, output) => {
    expect(readDriverOutput(output)).toBeUndefined();
  });
});
