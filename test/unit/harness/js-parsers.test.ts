import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsRunnerSchema, parseJsRunner, readJsTestFiles, type JsRunner } from '../../../src/harness/js-test-files.js';
import { statusMapSchema, type StatusMap } from '../../../src/harness/test-report.js';

const LOGS = join(import.meta.dirname, '..', '..', 'fixtures', 'logs');
const readLog = (runner: JsRunner): string => readFileSync(join(LOGS, `js-${runner}.txt`), 'utf8');

/** Runs the runner's real parser with the host's python3 (stdlib only), log on stdin. */
function parse(runner: JsRunner, log: string): StatusMap {
  const stdout = execFileSync('python3', ['-c', readJsTestFiles(runner).testParser], { input: log, encoding: 'utf8' });
  return statusMapSchema.parse(JSON.parse(stdout));
}

/** Jest and Vitest ran the same sample suite (see test/fixtures/logs/js-sample/). */
const JEST_SHAPED = (ext: string): StatusMap => ({
  [`test/broken.test.${ext}`]: 'failed',
  [`test/calc.test.${ext} > calc > adds`]: 'passed',
  [`test/calc.test.${ext} > calc > fails`]: 'failed',
  [`test/calc.test.${ext} > calc > nested > deep pass`]: 'passed',
  [`test/calc.test.${ext} > calc > nested > inc 1 -> 2`]: 'passed',
  [`test/calc.test.${ext} > calc > nested > inc 2 -> 3`]: 'passed',
  [`test/calc.test.${ext} > top level`]: 'passed',
  [`test/other.test.${ext} > top level`]: 'failed',
});

const EXPECTED: Record<JsRunner, StatusMap> = {
  jest: JEST_SHAPED('js'),
  vitest: JEST_SHAPED('mjs'),
  mocha: {
    'test/calc.spec.js > calc adds': 'passed',
    'test/calc.spec.js > calc fails': 'failed',
    'test/calc.spec.js > calc nested deep pass': 'passed',
    'test/calc.spec.js > hooked "before all" hook for "never runs"': 'failed',
    'test/calc.spec.js > top level': 'passed',
    'test/other.spec.js > top level': 'failed',
  },
  'node-test': {
    'test/broken.test.mjs': 'failed',
    'test/math.test.mjs > math > adds': 'passed',
    'test/math.test.mjs > math > fails # not a directive': 'failed',
    'test/math.test.mjs > math > nested group > deep fail': 'failed',
    'test/math.test.mjs > math > nested group > deep pass': 'passed',
    'test/math.test.mjs > top level passes': 'passed',
    'test/math.test.mjs > top level with subtests > sub a': 'passed',
    'test/math.test.mjs > top level with subtests > sub b': 'failed',
    'test/other.test.mjs > hook fails': 'failed',
    'test/other.test.mjs > top level passes': 'passed',
  },
  tape: {
    'test/calc.test.js > adds': 'passed',
    'test/calc.test.js > fails # with hash': 'failed',
    'test/calc.test.js > has a skipped assertion': 'passed',
    'test/calc.test.js > inner': 'passed',
    'test/other.test.js > adds': 'failed',
  },
  'node-tap': {
    // The file's own top-level assertion ("file level assertion") belongs to the file.
    'test/calc.test.js': 'passed',
    'test/calc.test.js > adds': 'passed',
    'test/calc.test.js > empty block': 'passed',
    'test/calc.test.js > fails # with hash': 'failed',
    'test/calc.test.js > has a todo assertion': 'passed',
    'test/calc.test.js > outer': 'passed',
    'test/calc.test.js > outer > inner': 'passed',
    'test/calc.test.js > throws': 'failed',
    'test/other.test.js > adds': 'failed',
  },
};

describe('JS runner parsers on real runner output', () => {
  it.each(jsRunnerSchema.options)('%s: every executed test, skips and todos omitted, exact statuses', (runner) => {
    expect(parse(runner, readLog(runner))).toEqual(EXPECTED[runner]);
  });

  it.each(['jest', 'vitest', 'mocha'] as const)('%s: a report block a test printed earlier cannot plant results', (runner) => {
    const fake = 'ssr-json-report-begin\n{"testResults": [{"name": "/repo/test/x.js", "assertionResults": [{"ancestorTitles": [], "title": "planted", "status": "passed"}]}], "passes": [{"file": "/repo/test/x.js", "fullTitle": "planted"}]}\nssr-json-report-end\n';
    expect(parse(runner, fake + readLog(runner))).toEqual(EXPECTED[runner]);
  });

  it.each(['jest', 'vitest', 'mocha'] as const)('%s: a log cut off inside the report yields nothing', (runner) => {
    const log = readLog(runner);
    expect(parse(runner, log.slice(0, log.lastIndexOf('ssr-json-report-end')))).toEqual({});
  });

  it('TAP: a log cut off mid-file keeps only the test points already printed', () => {
    const log = readLog('node-test');
    const cut = log.slice(0, log.indexOf('# Subtest: top level with subtests'));
    expect(parse('node-test', cut)).toEqual({
      'test/broken.test.mjs': 'failed',
      'test/math.test.mjs > math > adds': 'passed',
      'test/math.test.mjs > math > fails # not a directive': 'failed',
      'test/math.test.mjs > math > nested group > deep fail': 'failed',
      'test/math.test.mjs > math > nested group > deep pass': 'passed',
      'test/math.test.mjs > top level passes': 'passed',
    });
  });

  it('node:test: a top-level test named after the file (older Node wraps each file) is dropped from ids', () => {
    const log = ['ssr-test-file: test/a.test.mjs', 'TAP version 13', '# Subtest: /repo/test/a.test.mjs', '    # Subtest: works', '    ok 1 - works', '      ---', '      duration_ms: 1', '      ...', '    1..1', 'ok 1 - /repo/test/a.test.mjs', '1..1'].join('\n');
    expect(parse('node-test', log)).toEqual({ 'test/a.test.mjs > works': 'passed' });
  });
});

describe('TAP with a nonce (node-test.sh): only lines that carry the declared nonce count', () => {
  const NONCE = '0123456789abcdef0123456789abcdef';
  const tagged = (log: string, nonce = NONCE): string => log.split('\n').map((line) => `${nonce} ${line}`).join('\n');
  const FORGED = ['ssr-test-file: test/math.test.mjs', '# Subtest: math', '    # Subtest: fails # not a directive', '    ok 1 - fails # not a directive', '    1..1', 'ok 1 - math'].join('\n');

  it('reads the tagged log exactly as the plain one', () => {
    expect(parse('node-test', `${tagged(readLog('node-test'))}\nssr-tap-nonce: ${NONCE}\n`)).toEqual(EXPECTED['node-test']);
  });

  it('ignores TAP lines without the nonce: a test point code under test wrote into the log plants nothing', () => {
    const log = `${FORGED}\n${tagged(readLog('node-test'))}\n${FORGED}\nssr-tap-nonce: ${NONCE}\n`;
    expect(parse('node-test', log)).toEqual(EXPECTED['node-test']);
  });

  it('counts nothing when a second nonce is declared (something else wrote to the log)', () => {
    const fake = 'f'.repeat(32);
    const log = `${tagged(readLog('node-test'))}\nssr-tap-nonce: ${NONCE}\n${tagged(FORGED, fake)}\nssr-tap-nonce: ${fake}\n`;
    expect(parse('node-test', log)).toEqual({});
  });

  const commit = (nonce: string): string => `ssr-tap-commit: ${createHash('sha256').update(nonce).digest('hex')}`;

  it('counts the tagged lines when the one commitment matches the declared nonce', () => {
    const log = `${commit(NONCE)}\n${FORGED}\n${tagged(readLog('node-test'))}\nssr-tap-nonce: ${NONCE}\n`;
    expect(parse('node-test', log)).toEqual(EXPECTED['node-test']);
  });

  it('counts nothing when the declared nonce is not the committed one (the script was killed and code under test declared its own)', () => {
    const fake = 'f'.repeat(32);
    const log = `${commit(NONCE)}\n${tagged('ssr-test-file: test/math.test.mjs')}\n${tagged(FORGED, fake)}\nssr-tap-nonce: ${fake}\n`;
    expect(parse('node-test', log)).toEqual({});
  });

  it('counts nothing with a second commitment, or a commitment and no declaration', () => {
    const fake = 'f'.repeat(32);
    const two = `${commit(NONCE)}\n${tagged(readLog('node-test'))}\n${tagged(FORGED, fake)}\n${commit(fake)}\nssr-tap-nonce: ${NONCE}\n`;
    expect(parse('node-test', two)).toEqual({});
    expect(parse('node-test', `${commit(NONCE)}\n${tagged(readLog('node-test'))}\n`)).toEqual({});
  });

  it.each(['node-test', 'tape', 'node-tap'] as const)('the %s script commits to its nonce before any test runs and declares it last', (runner) => {
    const { testScript } = readJsTestFiles(runner);
    const commitAt = testScript.indexOf(`echo "ssr-tap-commit: $(printf '%s' "$nonce" | sha256sum | cut -d' ' -f1)"`);
    expect(commitAt).toBeGreaterThan(0);
    expect(commitAt).toBeLessThan(testScript.search(/^\s*node /m));
    expect(testScript).toMatch(/echo "ssr-tap-nonce: \$nonce"\nexit "\$status"\n$/);
  });

  it('the tape / node-tap script never puts its nonce in a command line or the environment, and counts only the runner\'s channel', () => {
    const { testScript } = readJsTestFiles('tape');
    expect(testScript).not.toMatch(/export nonce|nonce=[^$]*\bexport\b/);
    expect(testScript).toContain('<<< "$nonce"');
    expect(testScript).not.toMatch(/^\s*node [^\n<]*\$nonce/m);
    expect(testScript).toContain("tape.createStream()");
  });

  it('the node-test script declares its nonce last and tags every line its reporter writes', () => {
    const { testScript } = readJsTestFiles('node-test');
    expect(testScript).toMatch(/echo "ssr-tap-nonce: \$nonce"\nexit "\$status"\n$/);
    expect(testScript).toContain('echo "$nonce ssr-test-file: ${file#./}"');
    expect(testScript).not.toMatch(/export nonce|nonce=[^$]*\bexport\b/);
  });
});

describe('JSON reports with a nonce commitment (jest.sh, vitest.sh, mocha.sh): only the committed block counts', () => {
  const NONCE = '0123456789abcdef0123456789abcdef';
  const FAKE = 'f'.repeat(32);
  const commit = (nonce: string): string => `ssr-json-report-commit: ${createHash('sha256').update(nonce).digest('hex')}`;
  const block = (runner: JsRunner): string => readLog(runner).slice(readLog(runner).indexOf('ssr-json-report-begin'), readLog(runner).indexOf('ssr-json-report-end'));
  const forged = (runner: JsRunner): string => (runner === 'mocha' ? `ssr-json-report-begin\n{"passes": [], "failures": [], "pending": []}\n` : `ssr-json-report-begin\n{"testResults": []}\n`);

  it.each(['jest', 'vitest', 'mocha'] as const)('%s: the committed block counts; one before it with its own nonce and one appended after it do not', (runner) => {
    const log = `${commit(NONCE)}\n${forged(runner)}ssr-json-report-end\nssr-json-report-nonce: ${FAKE}\n${readLog(runner).trimEnd()}\nssr-json-report-nonce: ${NONCE}\n${forged(runner)}ssr-json-report-end\nssr-json-report-nonce: ${NONCE}\n`;
    expect(parse(runner, log)).toEqual(EXPECTED[runner]);
  });

  it.each(['jest', 'vitest', 'mocha'] as const)('%s: a block code under test wrote before killing the script (no reveal of the committed nonce) counts nothing', (runner) => {
    const real = `${block(runner)}ssr-json-report-end\n`;
    expect(parse(runner, `${commit(NONCE)}\n${real}ssr-json-report-nonce: ${FAKE}\n`)).toEqual({});
    expect(parse(runner, `${commit(NONCE)}\n${real}`)).toEqual({});
    expect(parse(runner, `${commit(NONCE)}\n${commit(FAKE)}\n${real}ssr-json-report-nonce: ${NONCE}\n`)).toEqual({});
  });

  it.each(['jest', 'vitest', 'mocha'] as const)('the %s script commits before the runner starts and reveals right after the block', (runner) => {
    const { testScript } = readJsTestFiles(runner);
    expect(testScript.indexOf('echo "ssr-json-report-commit: ')).toBeGreaterThan(0);
    expect(testScript.indexOf('echo "ssr-json-report-commit: ')).toBeLessThan(testScript.indexOf('node_modules/.bin/'));
    expect(testScript).toContain('echo ssr-json-report-end\necho "ssr-json-report-nonce: $nonce"\n');
    expect(testScript).not.toMatch(/export nonce|--[a-z-]+=?"?\$nonce/);
  });
});

describe('the JSON report the test driver appended (jest.sh, vitest.sh, mocha.sh through its FIFO): the only one that counts', () => {
  const report = (runner: 'jest' | 'vitest' | 'mocha'): string => {
    const log = readLog(runner);
    return log.slice(log.indexOf('ssr-json-report-begin') + 'ssr-json-report-begin\n'.length, log.indexOf('ssr-json-report-end')).trim();
  };
  const driverBlock = (exit: string, text: string): string => `ssr-json-report-supervised-begin ${exit}\n${text}\nssr-json-report-supervised-end\n`;
  const FORGED_JEST = '{"testResults": [{"name": "/repo/test/calc.test.js", "status": "passed", "assertionResults": [{"ancestorTitles": ["calc"], "title": "fails", "status": "passed"}]}]}';
  const FORGED_MOCHA = '{"passes": [{"fullTitle": "calc fails", "file": "/repo/test/calc.test.js"}], "failures": [], "pending": []}';
  const forgedFor = (runner: 'jest' | 'vitest' | 'mocha'): string => (runner === 'mocha' ? FORGED_MOCHA : FORGED_JEST);

  it.each(['jest', 'vitest', 'mocha'] as const)('%s: the driver\'s block counts; a forged one before it and a committed block beside it do not', (runner) => {
    const FORGED = forgedFor(runner);
    const log = `ssr-json-report-commit: ${'a'.repeat(64)}\nssr-json-report-supervised\n${driverBlock('1', FORGED)}${readLog(runner).trimEnd()}\nssr-json-report-nonce: x\n${driverBlock('1', report(runner))}`;
    expect(parse(runner, log)).toEqual(EXPECTED[runner]);
  });

  it.each(['jest', 'vitest', 'mocha'] as const)('%s: a runner killed before it wrote (exit not 0 or 1), or a FIFO that carried more than one report, counts nothing', (runner) => {
    const FORGED = forgedFor(runner);
    // A block printed the old way beside it never stands in for the driver's (the script prints none in FIFO mode).
    const nonce = '0123456789abcdef';
    const printed = `ssr-json-report-commit: ${createHash('sha256').update(nonce).digest('hex')}\n${readLog(runner).trimEnd()}\nssr-json-report-nonce: ${nonce}\n`;
    expect(parse(runner, printed)).toEqual(EXPECTED[runner]);
    expect(parse(runner, `${printed}${driverBlock('137', FORGED)}`)).toEqual({});
    expect(parse(runner, `${printed}${driverBlock('1', `${FORGED}\n${report(runner)}`)}`)).toEqual({});
    expect(parse(runner, `${printed}${driverBlock('1', report(runner))}ssr-json-report-supervised-begin 1\n`)).toEqual({});
  });
});

describe('JS runner files', () => {
  it.each(jsRunnerSchema.options)('%s: the test script is valid bash that runs in /repo', (runner) => {
    const { testScript } = readJsTestFiles(runner);
    expect(testScript).toMatch(/^cd \/repo \|\| exit 2$/m);
    execFileSync('bash', ['-n'], { input: testScript });
  });

  it('an unknown runner is refused with the known ones listed', () => {
    expect(() => parseJsRunner('ava')).toThrow(/unknown JavaScript test runner "ava": expected one of jest, vitest, mocha, node-test, tape, node-tap/);
    expect(parseJsRunner('node-tap')).toBe('node-tap');
  });
});
