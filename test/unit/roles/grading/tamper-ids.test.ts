import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readJsTestFiles } from '../../../../src/harness/js-test-files.js';
import type { TestReport } from '../../../../src/harness/test-report.js';
import { runVerdict } from '../../../../src/roles/grading/guard-verdict.js';
import { tamperFindings } from '../../../../src/roles/grading/tamper-ids.js';

const parseJest = (log: string): TestReport['statuses'] =>
  JSON.parse(execFileSync('python3', ['-c', readJsTestFiles('jest').testParser], { input: log, encoding: 'utf8' })) as TestReport['statuses'];

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
