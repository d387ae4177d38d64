import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readDefaultTestFiles } from '../../src/harness/default-files.js';
import { runTests, type RunTestsOptions } from '../../src/harness/run-tests.js';
import type { TestReport } from '../../src/harness/test-report.js';
import type { SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { bwrapTemplate, dockerTemplate, exampleRepo, tinyRepo, withSandbox } from '../helpers/sandboxes.js';
import { runCli, type CliRun } from '../helpers/cli.js';

const defaults = readDefaultTestFiles();

describe('runTests on the example repo', () => {
  it('gives identical status maps in Docker and bubblewrap with the default pytest script and parser', async () => {
    const repo = await exampleRepo();
    const run = async (template: SandboxTemplate): Promise<TestReport> =>
      withSandbox(template, (sandbox) => runTests(sandbox, { ...defaults, timeoutMs: repo.limits.test_timeout_s * 1000 }));
    const docker = await run(await dockerTemplate(repo));
    const bwrap = await run(await bwrapTemplate(repo));
    for (const report of [docker, bwrap]) {
      expect(report.parserFailure).toBeUndefined();
      expect(report.timedOut).toBe(false);
      expect(report.exitCode).toBe(0);
      expect(Object.values(report.statuses).every((status) => status === 'passed')).toBe(true);
      expect(report.logBytes).toBe(Buffer.byteLength(report.log));
    }
    expect(Object.keys(docker.statuses).length).toBeGreaterThanOrEqual(60);
    expect(bwrap.statuses).toEqual(docker.statuses);
  });
});

describe('runTests (docker, tiny repo)', () => {
  let template: SandboxTemplate;
  beforeAll(async () => {
    template = await dockerTemplate(await tinyRepo());
  });
  const run = (options: Partial<RunTestsOptions>): Promise<TestReport> =>
    withSandbox(template, (sandbox) => runTests(sandbox, { ...defaults, timeoutMs: 60_000, ...options }));

  it('runs the script in /repo and parses its log; a script that names the JS report FIFO is offered it', async () => {
    const report = await run({ testScript: `pwd\n[ -p "\${SSR_REPORT_FIFO:-}" ] && echo fifo-offered\n${defaults.testScript}` });
    expect(report).toMatchObject({ statuses: { 'tests/test_calc.py::test_add': 'passed' }, timedOut: false, exitCode: 0 });
    expect(report.log.startsWith('/repo\nfifo-offered\n')).toBe(true);
    expect(report.parserFailure).toBeUndefined();
  });

  it('reports a hanging script (and its background children) as timed out within its limit, and parses the partial log', async () => {
    // The log before the hang is pytest's -rA summary line, printed rather than run: a real pytest
    // run could itself outlast the 3 s limit on a loaded host and leave nothing to parse.
    const summary = ['=== short test summary info ===', 'PASSED tests/test_calc.py::test_add', '=== 1 passed in 0.01s ==='];
    const script = `printf '%s\\n' ${summary.map((line) => `'${line}'`).join(' ')}\n(sleep 600 &)\nsleep 600 & wait\n`;
    const started = Date.now();
    const report = await run({ testScript: script, timeoutMs: 3000 });
    expect(report.timedOut).toBe(true);
    expect(report.exitCode).toBeNull();
    expect(report.durationMs).toBeLessThan(3000 + 2000);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(report.statuses).toEqual({ 'tests/test_calc.py::test_add': 'passed' });
    expect(report.parserFailure).toBeUndefined();
  });

  it.each<[string, Partial<RunTestsOptions>, string, RegExp]>([
    ['crashes', { testParser: 'import sys\nprint("{}")\nraise RuntimeError("parser exploded")\n' }, 'parser-crashed', /code 1/],
    ['prints non-JSON', { testParser: 'print("all good!")\n' }, 'parser-output-not-json', /not JSON/],
    ['prints status "ok"', { testParser: 'print(\'{"tests/test_calc.py::test_add": "ok"}\')\n' }, 'parser-output-bad-schema', /"ok"/],
    ['prints status null', { testParser: 'print(\'{"t": null}\')\n' }, 'parser-output-bad-schema', /null/],
    ['prints status "skipped"', { testParser: 'print(\'{"t": "skipped"}\')\n' }, 'parser-output-bad-schema', /"skipped"/],
    ['hangs', { testParser: 'import time\ntime.sleep(600)\n', parserTimeoutMs: 1500 }, 'parser-timeout', /1500 ms/],
  ])('a parser that %s gives no statuses and a specific failure', async (_name, options, code, message) => {
    const report = await run(options);
    expect(report.statuses).toEqual({});
    expect(report.parserFailure?.code).toBe(code);
    expect(report.parserFailure?.message).toMatch(message);
    if (report.parserFailure?.code === 'parser-crashed') expect(report.parserFailure.stderr).toContain('RuntimeError: parser exploded');
    if (report.parserFailure?.code === 'parser-output-not-json') expect(report.parserFailure.head).toBe('all good!\n');
  });

  it('a guarded run starts few processes of its own: the guard unpacks in one tar, the supervisor locks the material', async () => {
    // Each command the driver used to start per file or per reading is wrapped by a shim on PATH
    // that logs its start; the guard's protections are unchanged (records, material lock).
    const shimmed = ['mkdir', 'ln', 'chmod', 'base64', 'date', 'id', 'head', 'wc', 'tar', 'python3', 'rm', 'mkfifo', 'setpriv', 'stat', 'bash', 'timeout'];
    const report = await withSandbox(template, async (sandbox) => {
      const shims = shimmed.map((cmd) => `real=$(command -v ${cmd}) && printf '#!/bin/bash\\necho "${cmd} $1" >> /tmp/shim.log\\nexec %s "$@"\\n' "$real" > /tmp/shims/${cmd}`).join('\n');
      await sandbox.exec(`mkdir -p /tmp/shims\n${shims}\nchmod 755 /tmp/shims/*; : > /tmp/shim.log; chmod 666 /tmp/shim.log`);
      // Engine requests of the run's exec: create and start; the exit code (an inspect) is not asked for.
      const requests: string[] = [];
      const container = (sandbox as unknown as { container: { exec: (options: unknown) => Promise<{ inspect: () => Promise<unknown> }> } }).container;
      const realExec = container.exec.bind(container);
      const spy = vi.spyOn(container, 'exec').mockImplementation(async (options) => {
        requests.push('exec');
        const exec = await realExec(options);
        const inspect = exec.inspect.bind(exec);
        exec.inspect = () => (requests.push('inspect'), inspect());
        return exec;
      });
      const run = await runTests(sandbox, { ...defaults, timeoutMs: 60_000, env: { PATH: `/tmp/shims:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin` } });
      spy.mockRestore();
      return { run, requests, starts: (await sandbox.exec('cat /tmp/shim.log')).output.split('\n').filter(Boolean) };
    });
    expect(report.run.statuses).toMatchObject({ 'tests/test_calc.py::test_add': 'passed' });
    expect(report.run.guard?.invalid).toBe(0);
    expect(report.run.material?.mode).toBe('read-only');
    const named = (cmd: string): string[] => report.starts.filter((line) => line.startsWith(`${cmd} `));
    expect(report.requests).toEqual(['exec']);
    expect(named('tar')).toHaveLength(1);
    // The interpreters outside the tests: the supervisor (which also locks and checks the test
    // material) and the parser; the lock and the check had one each before.
    expect(named('python3').filter((line) => line !== 'python3 -m')).toHaveLength(2);
    // The supervisor's interpreter scans no site and reads no PYTHON* variable of the image.
    expect(named('python3')).toContain('python3 -I');
    // A pytest script is offered no JS report FIFO (mkfifo, its reader, the kill that ended its
    // writers: 6 starts); the driver's files go in one rm, and stdin comes in the exec request, not
    // as a file the wrapper removes: rm before the run and rm -rf of the guard's folder after.
    expect(named('mkfifo')).toEqual([]);
    expect(named('rm')).toHaveLength(2);
    expect(named('setpriv')).toHaveLength(2);
    // The driver is the exec's own shell, the parser runs under timeout with no shell between
    // them, the supervisor opens the image's home (no chmod), one stat sizes the parser's output,
    // the log and the guard's record: bash -c is the exec's wrapper, its command and the script's
    // launcher (5 before), 1 stat (3), no chmod (1).
    expect(named('bash').filter((line) => line === 'bash -c')).toHaveLength(3);
    expect(named('stat')).toHaveLength(1);
    expect(named('chmod')).toEqual([]);
    expect(named('timeout')).toHaveLength(3);
    // Besides pytest, before: 45 (14 mkdir, 9 ln, 3 chmod, 11 base64, 4 date, 4 python3, id, head);
    // then 11, and 4 rm, mkfifo and 3 setpriv not counted here; then 11, 2 rm and 2 setpriv; with
    // bash, stat and timeout counted too, 27, now 22.
    expect(report.starts.filter((line) => line !== 'python3 -m').length, report.starts.join(' | ')).toBeLessThanOrEqual(22);
  });

  it('keeps the parser’s stderr out of its JSON', async () => {
    const parser = 'import sys, json\nprint("DeprecationWarning: noise", file=sys.stderr)\njson.dump({"t::a": "passed"}, sys.stdout)\n';
    expect((await run({ testParser: parser })).statuses).toEqual({ 't::a': 'passed' });
  });

  it('stores a 50 MB log capped (head and tail) with its true size; the parser reads all of it', async () => {
    const script = 'echo FIRST-LINE\nhead -c 50000000 /dev/zero | tr "\\0" "x"\necho\necho LAST-LINE\n';
    const parser = 'import sys, json\ndata = sys.stdin.buffer.read()\njson.dump({"size": "passed" if len(data) == 50000022 else "failed"}, sys.stdout)\n';
    const report = await run({ testScript: script, testParser: parser });
    expect(report.logBytes).toBe(50_000_022);
    expect(report.statuses).toEqual({ size: 'passed' });
    expect(Buffer.byteLength(report.log)).toBeLessThan(256 * 1024 + 200);
    expect(report.log.startsWith('FIRST-LINE\n')).toBe(true);
    expect(report.log.endsWith('\nLAST-LINE\n')).toBe(true);
    expect(report.log).toMatch(/\[ssr: 49737878 bytes of the 50000022-byte log omitted here\]/);
  });
});

describe('ssr test-run', () => {
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  function cli(args: string[]): Promise<CliRun> {
    return runCli(args);
  }

  it('runs the default pytest script and parser on a local repo and prints the report as JSON', async () => {
    const repo = await tinyRepo();
    const { code, stdout } = await cli(['test-run', '--repo', repo.location, '--sandbox', 'docker', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ statuses: { 'tests/test_calc.py::test_add': 'passed' }, timedOut: false });
  });

  it('prints a summary, and exits 1 when the script times out', async () => {
    const repo = await tinyRepo();
    const dir = await mkdtemp(join(tmpdir(), 'ssr-test-run-'));
    const script = join(dir, 'test_script.sh');
    await writeFile(script, 'sleep 600\n');
    const { code, stdout } = await cli(['test-run', '--repo', repo.location, '--sandbox', 'bwrap', '--script', script, '--test-timeout', '2']).finally(() =>
      rm(dir, { recursive: true, force: true }),
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/0 passed, 0 failed \(0 tests\)/);
    expect(stdout).toMatch(/TIMED OUT/);
  });

  it.each([
    [['--script', '/nonexistent/test_script.sh'], /--script \/nonexistent\/test_script\.sh: cannot read/],
    [['--test-timeout', '0'], /--test-timeout: expected a positive integer/],
  ])('exits 2 with a clear message on bad input %j', async (extra, message) => {
    const repo = await tinyRepo();
    const { code, stderr } = await cli(['test-run', '--repo', repo.location, '--sandbox', 'docker', ...extra]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});
