import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJsTestFiles } from '../../../src/harness/js-test-files.js';
import { statusMapSchema, type StatusMap } from '../../../src/harness/test-report.js';

// No tape on the host: each test file only prints, and since what a file prints never counts
// (only the runner's own stream does), the files the script ran are read from the name lines its
// wrapper writes for each file it ran (`<nonce> ssr-test-file: <path>`).
const ok = (name: string): string => `console.log('# ${name}'); console.log('ok 1 - ${name}');\n`;
const ranFiles = (log: string): string[] => [...log.matchAll(/^[0-9a-f]{32} ssr-test-file: (\S+)$/gm)].map((m) => m[1]!);

let repo = '';
afterEach(() => rmSync(repo, { recursive: true, force: true }));

/** Runs the real tap-files.sh (its `cd /repo` pointed at a temp repo) and its real parser on the log. */
function run(files: Record<string, string>): { statuses: StatusMap; log: string } {
  repo = mkdtempSync(join(tmpdir(), 'ssr-tap-aggregator-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  const { testScript, testParser } = readJsTestFiles('tape');
  const script = testScript.replace('cd /repo ||', `cd ${repo} ||`);
  // A file that fails to load makes the script exit 1; its log is still what counts.
  const log = spawnSync('bash', ['-c', script], { encoding: 'utf8' }).stdout;
  const stdout = execFileSync('python3', ['-c', testParser], { input: log, encoding: 'utf8' });
  return { statuses: statusMapSchema.parse(JSON.parse(stdout)), log };
}

describe('tap-files.sh (tape, node-tap) leaves out aggregator test files', () => {
  it('does not run a file that only requires test files run on their own, so no test is reported twice', () => {
    const { statuses, log } = run({
      'test/index.js': "'use strict';\n// every suite\nrequire('./join');\n/* and */\nrequire(\"./sub\");\n",
      'test/join.js': ok('join'),
      'test/sub/index.js': ok('sub'),
    });
    expect(ranFiles(log)).toEqual(['test/join.js', 'test/sub/index.js']);
    // Printed TAP counts nothing, the copies under index.js included.
    expect(statuses).toEqual({});
  });

  it('skips an ESM aggregator that imports test files for their side effects', () => {
    const { log } = run({ 'test/all.mjs': "import './a.mjs';\n", 'test/a.mjs': ok('a') });
    expect(ranFiles(log)).toEqual(['test/a.mjs']);
  });

  it.each([
    ['requires the package, not a test file', "require('../index.js');\n"],
    ['requires a fixture (which the loop does not run)', "require('./fixtures/f');\n"],
    ['has code besides its requires', "require('./a');\nconsole.log('ok 2 - own');\n"],
    ['has code after a require on the same line', "require('./a'); console.log('ok 2 - own');\n"],
    ['hides code behind a comment that ends on its line', "/*\n*/ require('./a');\n"],
    ['requires a file that does not exist', "require('./nothere');\n"],
    ['requires itself', "require('./agg');\n"],
  ])('runs a file that %s', (_case, text) => {
    const { log } = run({ 'test/agg.js': text, 'test/a.js': ok('a'), 'test/fixtures/f.js': ok('fixture'), 'index.js': '' });
    expect(ranFiles(log)).toContain('test/agg.js');
  });
});
