import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalScript } from '../../../src/corpus/eval-script.js';
import { readJsTestFiles } from '../../../src/harness/js-test-files.js';

// The exported eval_script of a JS artifact carries nothing Python-only but its parser (every
// test_parser.py is Python, method §2): it runs the artifact's own node:test script and prints the
// status map. Real run on the host (its Node and python3), the repo at a temp dir instead of /repo.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ssr-eval-js-'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'test', 'calc.test.mjs'), `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
describe('calc', () => {
  it('adds', () => assert.equal(1 + 1, 2));
  it('fails', () => assert.equal(1 + 1, 3));
});
`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('evalScript on a JS artifact (node:test)', () => {
  it('runs the artifact\'s node:test script and prints its parser\'s status map', { timeout: 120_000 }, async () => {
    const { testScript, testParser } = readJsTestFiles('node-test');
    expect(evalScript(testScript, testParser, 60)).not.toMatch(/pytest/);
    const here = (text: string): string => text.replace('cd /repo', `cd '${dir}'`);
    const { stdout } = await promisify(execFile)('bash', ['-c', here(evalScript(here(testScript), testParser, 60))], { encoding: 'utf8' });
    expect(JSON.parse(stdout)).toEqual({ 'test/calc.test.mjs > calc > adds': 'passed', 'test/calc.test.mjs > calc > fails': 'failed' });
  });
});
