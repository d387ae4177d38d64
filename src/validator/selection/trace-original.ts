import { isTestPath } from '../../code/classify-path.js';
import { parseTestCoverage, type CoverageRead } from '../../coverage/test-coverage.js';
import { traceLinesScript } from '../../coverage/trace-script.js';
import type { SandboxProvider, SandboxTemplate } from '../../sandbox/sandbox.js';
import { shellQuote, shellQuoteAll } from '../../util/shell-quote.js';
import { execMustSucceed, scratchFile, writeInfra } from '../../workspace/exec-checked.js';

/** Arguments ssr passes on from a test script's pytest call: plain words only (no quoting, no shell syntax). */
const PLAIN = /^[\w./:=,+@-]+$/;

/**
 * The arguments of the test script's pytest call (`python3 -m pytest -rA tests` → `-rA tests`), so
 * the traced run collects what the script does; none when no call is found or one is not a
 * plain word. A traced run that ran other test files than the script is caught by the
 * completeness check (selectByCoverage), not trusted.
 */
export function pytestArgsOf(testScript: string): string[] {
  for (const line of testScript.split('\n').reverse()) {
    const call = /(?:^|\s)(?:python3?\s+-m\s+)?pytest((?:\s+\S+)*)\s*$/.exec(line.trim());
    if (!call) continue;
    const args = (call[1] ?? '').trim().split(/\s+/).filter((arg) => arg !== '');
    return args.every((arg) => PLAIN.test(arg)) ? args : [];
  }
  return [];
}

/**
 * Per-test-file line coverage of O: the suite run once in process under trace_lines.py (pytest,
 * `limitS` at most), then its map of every tracked Python code file read back whole. `unusable`,
 * with the reason, when the trace crashed, timed out, was disturbed or came back cut short; an
 * infrastructure failure throws (EngineError).
 */
export async function traceOriginal(provider: SandboxProvider, template: SandboxTemplate, testScript: string, limitS: number): Promise<CoverageRead> {
  const sandbox = await provider.acquire(template);
  try {
    const listing = await execMustSucceed(sandbox, 'listing the Python files', `git ls-files -- '*.py'`, { maxOutputBytes: 16 * 1024 * 1024 });
    const code = listing.output.split('\n').filter((path) => path.endsWith('.py') && !isTestPath(path));
    if (code.length === 0) return { status: 'unusable', reason: 'the repository has no Python code files to trace' };
    const script = scratchFile('trace_lines', '.py');
    const files = scratchFile('code_files', '.txt');
    const map = scratchFile('test_map', '.txt');
    await writeInfra(sandbox, script, traceLinesScript());
    await writeInfra(sandbox, files, `${code.join('\n')}\n`);
    const pytest = shellQuoteAll(['pytest', '-p', 'no:cacheprovider', '-q', ...pytestArgsOf(testScript)]);
    const command = [
      `PYTHONDONTWRITEBYTECODE=1 timeout --kill-after=5 ${Math.ceil(limitS)} python3 ${script} ${files} --map ${map} ${pytest} >/dev/null 2>&1`,
      `if [ -f ${map} ]; then xargs -a ${files} -d '\\n' python3 ${script} --query ${map}; fi`,
    ].join('\n');
    const result = await execMustSucceed(sandbox, 'tracing the clean suite', `bash -c ${shellQuote(command)}`, { timeoutMs: (limitS + 60) * 1000, maxOutputBytes: 64 * 1024 * 1024 });
    return parseTestCoverage(result.output);
  } finally {
    await sandbox.dispose().catch(() => undefined);
  }
}
