import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/artifacts');
const run = promisify(execFile);

/** `ssr …` as a user runs it: a child process, its stdout, stderr and exit code. */
async function ssr(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'ssr-validate-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function variantOf(fixture: string, name: string, edit: (dir: string) => void): string {
  const dir = join(scratch, name);
  cpSync(join(FIXTURES, fixture), dir, { recursive: true });
  edit(dir);
  return dir;
}

describe('ssr validate: the CLI contract', () => {
  it('--json prints exactly the documented object and exits 0 for a valid artifact', async () => {
    const { code, stdout } = await ssr('validate', '--repo', 'pyledger', '--artifact', join(FIXTURES, 'valid-single-file'), '--json');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(Object.keys(result).sort()).toEqual(['checks', 'durationMs', 'failToPass', 'failedCheck', 'originalGuarded', 'passToPass', 'selection', 'testRuns', 'valid']);
    expect(result).toMatchObject({ valid: true, failedCheck: null, originalGuarded: true });
    // The script runs only its listed file, so there is nothing to leave out (no traced run either),
    // and the suite takes well under a second: `auto` runs it in full, and says why.
    const why = /^coverage: the suite runs only test_files\.txt's 1 file\(s\), which every state runs; the clean suite takes [\d.]+ s, under the 30 s threshold of the import-graph selection$/;
    expect(result.selection).toEqual({ status: 'full', reason: expect.stringMatching(why) });
    expect(result.testRuns.coverage).toBeUndefined();
    expect(result.checks.map((c: { name: string }) => c.name)).toEqual(['existence', 'parser', 'test-script', 'min-files', 'failing-tests', 'breadth', 'concealment', 'inverse-redundancy', 'order-independence']);
    for (const check of result.checks) expect(Object.keys(check).sort()).toEqual(['durationMs', 'evidence', 'name', 'reason', 'status']);
    expect(result.failToPass.length).toBeGreaterThan(0);
    // The three F tests fail alone and in reverse order too: all judged, none dropped.
    expect(result.checks.at(-1)).toMatchObject({ name: 'order-independence', status: 'pass', evidence: { runner: 'pytest', judgedAlone: 3, judgedReversed: 3, passesAlone: [], flipsWithOrder: [] } });
    expect(typeof result.durationMs).toBe('number');
  });

  it('prints a readable table and exits 1 for an invalid artifact', async () => {
    const { code, stdout } = await ssr('validate', '--repo', 'pyledger', '--artifact', join(FIXTURES, 'weaken-unlisted-file'));
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL\s+existence/);
    expect(stdout).toContain('INVALID: rejected by existence');
  });

  it.each([
    ['an artifact dir that does not exist', () => join(scratch, 'nope'), /does not exist/],
    ['a missing file in the artifact', () => variantOf('valid-single-file', 'missing-parser', (dir) => rmSync(join(dir, 'test_parser.py'))), /test_parser\.py/],
    ['binary garbage in a diff', () => join(FIXTURES, 'garbage-diff'), /bug_inject\.diff: binary data at byte/],
  ])('%s: a specific error, exit 2, nothing on stdout', async (_label, dir, message) => {
    const { code, stdout, stderr } = await ssr('validate', '--repo', 'pyledger', '--artifact', dir(), '--json');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });

  it('--max-failing-tests below the bug\'s 3 failing tests rejects it as blunt (breadth, exit 1); a cap below min_failing_tests is a usage error', async () => {
    const { code, stdout } = await ssr('validate', '--repo', 'pyledger', '--artifact', join(FIXTURES, 'valid-single-file'), '--json', '--max-failing-tests', '2');
    expect(code).toBe(1);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ valid: false, failedCheck: 'breadth' });
    expect(result.checks.at(-1)).toMatchObject({ name: 'breadth', evidence: { failing: 3, files: 1, maxFailingTests: 2 } });
    const usage = await ssr('validate', '--repo', 'pyledger', '--artifact', join(FIXTURES, 'valid-single-file'), '--max-failing-files', '0');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--max-failing-files: expected a positive integer');
  });

  it('usage errors exit 2: neither --artifact nor --artifact-list, and an unknown repo', async () => {
    expect((await ssr('validate', '--repo', 'pyledger')).code).toBe(2);
    const unknown = await ssr('validate', '--repo', 'no-such-repo', '--artifact', join(FIXTURES, 'valid-single-file'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/not an id in repos\.yaml/);
  });

  it('a 50 MB log is handled inside the sandbox: the verdict still comes, nothing breaks', async () => {
    const dir = variantOf('valid-single-file', 'huge-log', (d) => {
      const script = readFileSync(join(d, 'test_script.sh'), 'utf8');
      // 50 MB of noise before the real run; the parser only reads pytest's summary.
      writeFileSync(join(d, 'test_script.sh'), script.replace(/^(cd .*)$/m, '$1\nhead -c 52428800 /dev/zero | tr "\\0" "x"; echo'));
    });
    const { code, stdout } = await ssr('validate', '--repo', 'pyledger', '--artifact', dir, '--json');
    const result = JSON.parse(stdout);
    expect(result.checks.find((c: { name: string }) => c.name === 'parser').evidence.logBytes).toBeGreaterThan(50 * 1024 * 1024);
    expect(code).toBe(0);
  });

  it('--artifact-list validates many artifacts with shared original runs, one JSON line each', async () => {
    const list = join(scratch, 'list.txt');
    writeFileSync(list, [join(FIXTURES, 'valid-single-file'), join(FIXTURES, 'bug-breaks-nothing'), join(scratch, 'missing-dir'), ''].join('\n'));
    const { code, stdout } = await ssr('validate', '--repo', 'pyledger', '--artifact-list', list);
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => line.valid)).toEqual([true, false, false]);
    expect(lines[0].id).toMatch(/^bug-[0-9a-f]{16}$/);
    expect(lines[1].failedCheck).toBe('failing-tests');
    expect(lines[2].error.code).toBe('artifact-invalid-input');
    expect(code).toBe(2);
  });
});
