import type { ValidationResult } from '../validator/validate-artifact.js';

const MARK = { pass: 'PASS', fail: 'FAIL', error: 'ERROR' } as const;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** The human-readable verdict of `ssr validate`: one row per check, then the verdict line. */
export function formatValidationTable(result: ValidationResult, label?: string): string {
  const lines: string[] = [];
  if (label) lines.push(label);
  const width = Math.max(...result.checks.map((check) => check.name.length), 5);
  for (const check of result.checks) {
    lines.push(`  ${MARK[check.status].padEnd(5)} ${check.name.padEnd(width)} ${seconds(check.durationMs).padStart(6)}  ${check.reason}`);
  }
  const verdict = result.infrastructureError
    ? `NOT JUDGED: infrastructure error in ${result.infrastructureError.check}`
    : result.valid
      ? `VALID: ${result.failToPass.length} fail-to-pass, ${result.passToPass.length} pass-to-pass test(s)`
      : `INVALID: rejected by ${result.failedCheck}`;
  lines.push(`  ${verdict} (${seconds(result.durationMs)})`);
  return `${lines.join('\n')}\n`;
}
