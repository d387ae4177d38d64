import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessAssetDir } from '../../../src/harness/default-files.js';
import { readJsTestFiles } from '../../../src/harness/js-test-files.js';

const SHARED = readFileSync(join(harnessAssetDir('defaults'), 'js', 'json_report_block.py'), 'utf8').trimEnd();
const dir = mkdtempSync(join(tmpdir(), 'ssr-json-report-block-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const jestReport = JSON.stringify({ testResults: [{ name: '/repo/t.test.js', assertionResults: [{ ancestorTitles: [], title: 'adds', status: 'passed' }] }] });
const mochaReport = JSON.stringify({ passes: [{ file: '/repo/t.spec.js', fullTitle: 'adds' }], failures: [], pending: [] });

describe('the JSON report block reader the Jest/Vitest and Mocha parsers share', () => {
  it.each([
    ['jest', jestReport, 't.test.js > adds'],
    ['vitest', jestReport, 't.test.js > adds'],
    ['mocha', mochaReport, 't.spec.js > adds'],
  ] as const)('travels inside the %s test_parser.py, which reads the driver-appended block alone in an empty folder', (runner, report, id) => {
    const parser = readJsTestFiles(runner).testParser;
    expect(parser).toContain(SHARED);
    expect(parser).not.toMatch(/^from \w+ import .*# ssr-inline$/m);
    expect(parser.split('def supervised_text(').length).toBe(2);
    // The artifact's test_parser.py alone, as the sandbox and an exported eval script have it.
    const path = join(dir, `${runner}_test_parser.py`);
    writeFileSync(path, parser);
    const forged = `ssr-json-report-begin\n${report.replace('passed', 'failed').replace('passes', 'failures')}\nssr-json-report-end\n`;
    const log = `${forged}ssr-json-report-supervised-begin 1\n${report}\nssr-json-report-supervised-end\n`;
    expect(JSON.parse(execFileSync('python3', [path], { cwd: dir, input: log, encoding: 'utf8' }))).toEqual({ [id]: 'passed' });
  });
});
