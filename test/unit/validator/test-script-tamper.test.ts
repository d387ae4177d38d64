import { describe, expect, it } from 'vitest';
import { testScriptCheck } from '../../../consistency-checks/test-script.js';
import type { TestReport } from '../../../src/harness/test-report.js';
import { contextWithRuns, ran } from './check-context.js';

describe('test-script check: a clean suite that trips the JS in-process tamper checks', () => {
  it('refuses the artifact and names the file and the finding, instead of letting every grade be runner-tampered', async () => {
    const statuses = { 'test/a.test.js > works': 'passed', 'ssr-tampered: test/a.test.js: global expect reassigned': 'failed' } as const;
    const ctx = { ...contextWithRuns({ runs: {} }), run: async () => ({ status: 'ran' as const, report: { ...(ran(statuses) as { report: TestReport }).report, logBytes: 100 } }) };
    const verdict = await testScriptCheck.run(ctx);
    expect(verdict.status).toBe('fail');
    expect(verdict.reason).toContain('in-process tamper checks (1): test/a.test.js: global expect reassigned');
  });
});
