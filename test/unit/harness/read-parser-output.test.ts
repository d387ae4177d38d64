import { describe, expect, it } from 'vitest';
import { readParserOutput, type ParserRun } from '../../../src/harness/read-parser-output.js';

const run = (overrides: Partial<ParserRun>): ParserRun => ({ exitCode: 0, timedOut: false, durationMs: 12, timeoutMs: 30_000, stdout: '{}', stderr: '', ...overrides });

describe('readParserOutput', () => {
  it.each<[string, Partial<ParserRun>, Record<string, string>]>([
    ['a valid map', { stdout: '{"t::a": "passed", "t::b": "failed"}' }, { 't::a': 'passed', 't::b': 'failed' }],
    ['an empty map (emptiness is the validator’s call)', { stdout: ' {}\n' }, {}],
    ['stderr noise next to valid stdout', { stdout: '{"t::a": "passed"}', stderr: 'DeprecationWarning: x' }, { 't::a': 'passed' }],
  ])('accepts %s', (_name, overrides, statuses) => {
    expect(readParserOutput(run(overrides))).toEqual({ status: 'ok', statuses });
  });

  it.each<[string, Partial<ParserRun>, string, RegExp]>([
    ['a timeout (even with valid output)', { timedOut: true, exitCode: null, stdout: '{"t": "passed"}' }, 'parser-timeout', /within its 30000 ms limit/],
    ['a non-zero exit (even with valid output)', { exitCode: 1, stdout: '{"t": "passed"}', stderr: 'Traceback: boom' }, 'parser-crashed', /code 1/],
    ['a kill by signal', { exitCode: null }, 'parser-crashed', /killed/],
    ['plain text', { stdout: 'all tests passed' }, 'parser-output-not-json', /not JSON/],
    ['empty stdout', { stdout: '' }, 'parser-output-not-json', /not JSON/],
    ['two JSON objects', { stdout: '{"a": "passed"}\n{"b": "passed"}' }, 'parser-output-not-json', /not JSON/],
    ['status "ok"', { stdout: '{"t::a": "passed", "t::b": "ok"}' }, 'parser-output-bad-schema', /"t::b" has status "ok"/],
    ['status "skipped"', { stdout: '{"t::a": "skipped"}' }, 'parser-output-bad-schema', /"skipped"/],
    ['status null', { stdout: '{"t::a": null}' }, 'parser-output-bad-schema', /status null/],
    ['status "PASSED"', { stdout: '{"t::a": "PASSED"}' }, 'parser-output-bad-schema', /"PASSED"/],
    ['an empty id', { stdout: '{"": "passed"}' }, 'parser-output-bad-schema', /empty test id/],
    ['an array', { stdout: '["t::a"]' }, 'parser-output-bad-schema', /an array/],
    ['a bare string', { stdout: '"passed"' }, 'parser-output-bad-schema', /a string/],
    ['null', { stdout: 'null' }, 'parser-output-bad-schema', /printed null/],
  ])('rejects %s', (_name, overrides, code, message) => {
    const verdict = readParserOutput(run(overrides));
    expect(verdict.status).toBe('failed');
    if (verdict.status !== 'failed') return;
    expect(verdict.failure.code).toBe(code);
    expect(verdict.failure.message).toMatch(message);
  });

  it('quotes the offending entry, and at most ~200 characters of non-JSON output', () => {
    const bad = readParserOutput(run({ stdout: '{"t::a": "passed", "t::b": {"nested": 1}}' }));
    expect(bad).toMatchObject({ status: 'failed', failure: { code: 'parser-output-bad-schema', head: '{"t::b":{"nested":1}}' } });
    const long = readParserOutput(run({ stdout: `x${'y'.repeat(5000)}` }));
    expect(long.status === 'failed' && 'head' in long.failure && long.failure.head.length).toBeLessThanOrEqual(201);
  });

  it('keeps the stderr of a crash for the report', () => {
    const verdict = readParserOutput(run({ exitCode: 2, stderr: 'SyntaxError: invalid syntax' }));
    expect(verdict).toMatchObject({ failure: { code: 'parser-crashed', exitCode: 2, stderr: 'SyntaxError: invalid syntax' } });
  });
});
