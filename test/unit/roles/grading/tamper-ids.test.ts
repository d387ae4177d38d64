import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readJsTestFiles } from '../../../../src/harness/js-test-files.js';
import type { TestReport } from '../../../../src/harness/test-report.js';
import { runVerdict } from '../../../../src/roles/grading/guard-verdict.js';
import { tamperFindings } from '../../../../src/roles/grading/tamper-ids.js';

const parseWith = (runner: 'jest' | 'mocha' | 'tape', log: string): TestReport['statuses'] =>
  JSON.parse(execFileSync('python3', ['-c', readJsTestFiles(runner).testParser], { input: log, encoding: 'utf8' })) as TestReport['statuses'];
const parseJest = (log: string): TestReport['statuses'] => parseWith('jest', log);

const report = (statuses: TestReport['statuses']): TestReport => ({ statuses, timedOut: false, exitCode: 0, durationMs: 1, parserDurationMs: 1, logBytes: 1, log: '' });

describe('in-process tamper findings of the JS runner scripts', () => {
  const suite = {
    name: '/repo/test/a.test.js',
    status: 'failed',
    message: '',
    assertionResults: [
      { ancestorTitles: ['a'], title: 'works', status: 'failed', failureMessages: ['Error: ssr-tampered: global test reassigned; matcher toBe replaced\n    at x (/tmp/env.cjs:1:1)'] },
      { ancestorTitles: ['a'], title: 'also', status: 'failed', failureMessages: ['Error: ssr-tampered: global test reassigned; matcher toBe replaced'] },
    ],
  };
  const log = `ssr-tampered: ssr's test environment was changed on disk during the run\nssr-json-report-begin\n${JSON.stringify({ testResults: [suite] })}\nssr-json-report-end\n`;

  it('jest_json_parser.py reports each finding once, per file, as a failed ssr-tampered id beside the failed tests', () => {
    expect(parseJest(log)).toEqual({
      'test/a.test.js > a > works': 'failed',
      'test/a.test.js > a > also': 'failed',
      'ssr-tampered: test/a.test.js: global test reassigned; matcher toBe replaced': 'failed',
      "ssr-tampered: ssr's test environment was changed on disk during the run": 'failed',
    });
  });

  it('mocha_json_parser.py reports a finding line of the log beside a report that counts, and none without one', () => {
    const report = JSON.stringify({ passes: [{ file: '/repo/test/a.js', fullTitle: 'a works' }], failures: [], pending: [] });
    const log = `ssr-tampered: Mocha Runner.prototype.fail reassigned\nssr-json-report-begin\n${report}\nssr-json-report-end\n`;
    expect(parseWith('mocha', log)).toEqual({ 'test/a.js > a works': 'passed', 'ssr-tampered: Mocha Runner.prototype.fail reassigned': 'failed' });
    expect(parseWith('mocha', 'ssr-tampered: x\n')).toEqual({});
  });

  it('tap_parser.py reports a counted finding line under the file it came from; an untagged one counts nothing', () => {
    const nonce = '0123456789abcdef0123456789abcdef';
    const lines = ['ssr-test-file: test/a.js', 'TAP version 13', '# works', 'ok 1 should be equal', 'ssr-tampered: tape Test.prototype._assert reassigned'];
    const log = `ssr-tampered: forged\n${lines.map((line) => `${nonce} ${line}`).join('\n')}\nssr-tap-nonce: ${nonce}\n`;
    expect(parseWith('tape', log)).toEqual({ 'test/a.js > works': 'passed', 'ssr-tampered: test/a.js: tape Test.prototype._assert reassigned': 'failed' });
  });

  it('a finding is −1 with code runner-tampered even when O was not guarded; a run without one is unchanged', () => {
    const statuses = parseJest(log);
    expect(tamperFindings(statuses)).toEqual(["ssr's test environment was changed on disk during the run", 'test/a.test.js: global test reassigned; matcher toBe replaced']);
    const verdict = runVerdict(report(statuses), ['test/a.test.js > a > works'], false);
    expect(verdict.flags).toEqual(['runner-tampered']);
    expect(verdict.fatal?.code).toBe('runner-tampered');
    expect(verdict.fatal?.reason).toContain('global test reassigned');
    expect(runVerdict(report({ 'test/a.test.js > a > works': 'passed' }), ['test/a.test.js > a > works'], false)).toEqual({ flags: [], mismatched: [] });
  });
});
