import { parseTestCoverage, type CoverageRead } from '../../coverage/test-coverage.js';
import { traceLinesScript, v8LinesScript } from '../../coverage/trace-script.js';
import type { SandboxProvider, SandboxTemplate } from '../../sandbox/sandbox.js';
import { shellQuote } from '../../util/shell-quote.js';
import { execMustSucceed, scratchFile, writeInfra } from '../../workspace/exec-checked.js';

/** What the traced run of a JS suite runs, and which of its files are tests. */
export interface JsTraceInput {
  /** The test script O's full run ran (one of ssr's runner scripts: each test file in a Node process of its own). */
  testScript: string;
  /** The test files O's full run ran: a Node process that loaded exactly one of them is that file's. */
  testFiles: readonly string[];
  /** The suite's time limit, s. */
  limitS: number;
}

/**
 * Per-test-file line coverage of O's plain JavaScript files: the test script run once with
 * `NODE_V8_COVERAGE` (every Node process it starts writes its V8 block coverage), then read per
 * process by v8_lines.py `--map` (the procedural Injector's reader) and queried back whole with
 * trace_lines.py `--query`, the Python trace's format. `unusable`, with the reason, when no map
 * came back (a crash or time-out under coverage); an infrastructure failure throws (EngineError).
 */
export async function traceOriginalJs(provider: SandboxProvider, template: SandboxTemplate, input: JsTraceInput): Promise<CoverageRead> {
  const sandbox = await provider.acquire(template);
  try {
    const listing = await execMustSucceed(sandbox, 'listing the JavaScript files', `git ls-files -- '*.js' '*.mjs' '*.cjs'`, { maxOutputBytes: 16 * 1024 * 1024 });
    const tests = new Set(input.testFiles);
    const code = listing.output.split('\n').filter((path) => /\.[cm]?js$/.test(path) && !tests.has(path) && !path.includes('node_modules/'));
    if (code.length === 0) return { status: 'unusable', reason: 'the repository has no JavaScript code files to trace' };
    const [script, v8, trace, files, testList, dir, map] = [
      scratchFile('test_script', '.sh'),
      scratchFile('v8_lines', '.py'),
      scratchFile('trace_lines', '.py'),
      scratchFile('code_files', '.txt'),
      scratchFile('test_files', '.txt'),
      scratchFile('v8', ''),
      scratchFile('test_map', '.txt'),
    ];
    await writeInfra(sandbox, script, input.testScript);
    await writeInfra(sandbox, v8, v8LinesScript());
    await writeInfra(sandbox, trace, traceLinesScript());
    await writeInfra(sandbox, files, `${code.join('\n')}\n`);
    await writeInfra(sandbox, testList, `${input.testFiles.join('\n')}\n`);
    const command = [
      `mkdir -p ${dir}`,
      // The script's own exit status says which tests failed, not whether coverage was taken: the map's completeness check does.
      `NODE_V8_COVERAGE=${dir} NO_COLOR=1 timeout --kill-after=5 ${Math.ceil(input.limitS)} bash ${script} >/dev/null 2>&1`,
      // A run cut short by the limit wrote no coverage for the processes it killed: no map at all.
      'status=$?; if [ "$status" = 124 ] || [ "$status" = 137 ]; then exit 0; fi',
      `cd /repo && python3 ${v8} ${files} ${dir} --map ${map} ${testList} >/dev/null`,
      `if [ -f ${map} ]; then xargs -a ${files} -d '\\n' python3 ${trace} --query ${map}; fi`,
    ].join('\n');
    const result = await execMustSucceed(sandbox, 'tracing the clean JS suite', `bash -c ${shellQuote(command)}`, { timeoutMs: (input.limitS + 60) * 1000, maxOutputBytes: 64 * 1024 * 1024 });
    return parseTestCoverage(result.output);
  } finally {
    await sandbox.dispose().catch(() => undefined);
  }
}
