import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { injectorAssets } from '../../../../src/policy/procedural/injector/injector-assets.js';
import { runCommand, WORK_DIR } from '../../../../src/policy/procedural/injector/injector-commands.js';
import { parseRunSummary } from '../../../../src/policy/procedural/injector/run-summary.js';

/**
 * Issue 26: every Injector test run pays for the Python processes around it. The artifact's
 * parser runs inside summarize_run.py (one start, not two), with the same statuses file and
 * summary; a parser that fails still leaves no summary. Python starts are counted by a `python3`
 * first on PATH that logs its arguments and runs the real one.
 */
const root = mkdtempSync(join(tmpdir(), 'ssr-run-procs-'));
const repo = join(root, 'r');
const work = join(root, 'w');
const bin = join(root, 'bin');
const starts = join(root, 'starts.log');
const python = execFileSync('bash', ['-c', 'command -v python3'], { encoding: 'utf8' }).trim();

mkdirSync(repo);
mkdirSync(work);
mkdirSync(bin);
writeFileSync(join(bin, 'python3'), `#!/bin/sh\necho "$*" >> ${starts}\nexec ${python} "$@"\n`);
chmodSync(join(bin, 'python3'), 0o755);
const assets = injectorAssets();
writeFileSync(join(work, 'summarize_run.py'), assets.summarizeRun);
writeFileSync(join(work, 'pytest_parser.py'), assets.pytestParser);
writeFileSync(join(repo, 'test_x.py'), 'def test_ok():\n    assert True\n\n\ndef test_bad():\n    assert 1 == 2\n');

function runHere(label: string): string {
  writeFileSync(starts, '');
  const command = runCommand({ kind: 'pytest' }, label, { timeoutS: 60 }).replace(/\/tmp\/ssr_work|\/repo\b/g, (path) => (path === WORK_DIR ? work : repo));
  try {
    return execFileSync('bash', ['-c', command], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` } });
  } catch (error) {
    // The command fails as a whole when the parser does: what it printed still counts.
    return (error as { stdout?: string }).stdout ?? '';
  }
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('an Injector test run', () => {
  it('starts one Python process besides the tests, and writes the parser\'s statuses', () => {
    const out = runHere('t0');
    const others = readFileSync(starts, 'utf8').trim().split('\n').filter((line) => !/-m pytest/.test(line));
    expect(others).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(work, 't0.json'), 'utf8'))).toEqual({ 'test_x.py::test_bad': 'failed', 'test_x.py::test_ok': 'passed' });
    const summary = parseRunSummary(out);
    expect(summary).toMatchObject({ passed: 1, failed: 1, failures: [{ id: 'test_x.py::test_bad', exc: 'AssertionError' }] });
  });

  it('prints no summary when the parser fails', () => {
    writeFileSync(join(work, 'pytest_parser.py'), 'import sys\nsys.exit(3)\n');
    try {
      const out = runHere('t1');
      expect(out).toContain('@@exit 1');
      expect(parseRunSummary(out)).toBeNull();
    } finally {
      writeFileSync(join(work, 'pytest_parser.py'), assets.pytestParser);
    }
  });
});
