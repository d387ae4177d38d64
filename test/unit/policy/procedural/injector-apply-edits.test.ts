import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assetsDir, injectorAssets } from '../../../../src/policy/procedural/injector/injector-assets.js';
import { jsSetupCommand, setupCommand, WORK_DIR } from '../../../../src/policy/procedural/injector/injector-commands.js';
import { applyEdit } from '../../../../src/tools/line-match.js';

const SCRIPT = join(assetsDir(), 'scripts', 'apply_edits.py');

/** Run apply_edits.py on files in a fresh directory; returns its output and the files after. */
function run(files: Record<string, string>, edits: Array<{ path: string; search: string; replace: string }>): { output: string; after: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'ssr-apply-edits-'));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  writeFileSync(join(dir, 'edits.json'), JSON.stringify(edits));
  let output: string;
  try {
    output = execFileSync('python3', [SCRIPT, 'edits.json'], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    output = (error as { stdout: string }).stdout;
  }
  return { output, after: Object.fromEntries(Object.keys(files).map((path) => [path, readFileSync(join(dir, path), 'utf8')])) };
}

describe('apply_edits.py (several edits in one command, as the edit tool makes them)', () => {
  it.each([
    ['a middle block', 'a\nb\nc\n', 'b', 'B1\nB2'],
    ['a block deleted', 'a\nb\nc\n', 'b\n', ''],
    ['a last line without final newline', 'a\nb', 'b', 'c'],
    ['CRLF line endings kept', 'a\r\nb\r\nc\r\n', 'b', 'x'],
    ['a block ending in a blank line', 'a\n\nb\n', 'a\n\n', 'z\n'],
  ])('agrees with the edit tool: %s', (_name, text, search, replace) => {
    const expected = applyEdit(text, search, replace);
    expect(expected.status).toBe('edited');
    const { output, after } = run({ 'f.py': text }, [{ path: 'f.py', search, replace }]);
    expect(output).toContain('@@edited 1');
    expect(after['f.py']).toBe(expected.status === 'edited' ? expected.text : '');
  });

  it('applies edits to several files in order', () => {
    const { output, after } = run({ 'a.py': 'x = 1\ny = 2\n', 'b.py': 'z = 3\n' }, [
      { path: 'a.py', search: 'y = 2', replace: '' },
      { path: 'b.py', search: 'z = 3', replace: 'z = 4' },
      { path: 'a.py', search: 'x = 1', replace: 'x = 0' },
    ]);
    expect(output).toContain('@@edited 3');
    expect(after).toEqual({ 'a.py': 'x = 0\n', 'b.py': 'z = 4\n' });
  });

  it.each([
    ['a block that occurs twice', 'a\na\n', 'a', /@@edit-failed f\.py: search block found 2 times/],
    ['a block that is not there', 'a\n', 'b', /@@edit-failed f\.py: search block found 0 times/],
    ['a partial line', 'abc\n', 'ab', /@@edit-failed f\.py: search block found 0 times/],
  ])('refuses %s and leaves the file as it was', (_name, text, search, message) => {
    const { output, after } = run({ 'f.py': text }, [{ path: 'f.py', search, replace: 'X' }]);
    expect(output).toMatch(message);
    expect(after['f.py']).toBe(text);
  });
});

describe('the helper scripts every Injector command relies on', () => {
  it('are written by the setup command of a Python and of a JS repo alike', () => {
    const assets = injectorAssets();
    for (const setup of [setupCommand(assets), jsSetupCommand(assets, 'node-test')]) {
      // Candidate edits and weakening rounds run apply_edits.py, run summaries summarize_run.py.
      for (const helper of ['apply_edits.py', 'summarize_run.py']) expect(setup).toContain(`${WORK_DIR}/${helper} <<`);
    }
  });
});
