import { join } from 'node:path';
import PQueue from 'p-queue';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { runTests, type TestRun } from '../../src/harness/run-tests.js';
import { gradeSolution, type GradeSolutionOptions, type SolverGrade } from '../../src/roles/grade-solution.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import type { SandboxProvider, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { dockerTemplate } from '../helpers/sandboxes.js';
import { cheatArtifact, cheatPatch, CHEATS, expectCheatEarnsNothing, fixtureRepo, loadCheats } from './js-cheats.js';

/**
 * Jest as a real runner (issue 16): jestkit, a CommonJS library with a Jest 29 suite
 * (test/fixtures/js-cheats/jest/repo/, its lockfile from the npm registry), made a git repo with
 * fixed dates and built into an image by `npm ci` (Debian's Node 18). The Jest script and
 * jest_json_parser.py give ids `file > describe… > test` with the right statuses; a config or
 * package.json `jest` field that narrows collection, a setupFilesAfterEnv file that swallows
 * failures, a shadowed runner and a report the code under test prints or writes into the log each
 * earn −1 with the bug still there; so does code under test that tampers with Jest in the tests' own
 * process (globals rewrapped, matchers neutralised, recorded failures cleared, test bodies swapped:
 * `runner-tampered`, found by jest.sh's integrity environment); the honest fix earns +1.
 */
const DIR = join(CHEATS, 'jest');
const REPO_FILES = join(DIR, 'repo');
const F = 'test/money.test.js > money > splitEvenly > spreads the remainder over the first shares';
const FIX = `sed -i 's/index >= parts - remainder/index < remainder/' src/money.js`;
const TEST_TIMEOUT_S = 300;

/** Every test of jestkit, by the id the parser gives it. */
const IDS = [
  'test/money.test.js > money > formatCents > pads the cents',
  'test/money.test.js > money > formatCents > keeps the sign of a negative amount',
  'test/money.test.js > money > formatCents > refuses a fraction of a cent',
  'test/money.test.js > money > parseAmount > reads whole units',
  'test/money.test.js > money > parseAmount > reads one decimal as tens of cents',
  'test/money.test.js > money > parseAmount > names what it cannot read',
  'test/money.test.js > money > splitEvenly > splits an even amount into equal shares',
  F,
  'test/words.test.js > words > title-cases every word',
  'test/words.test.js > words > slugifies punctuation away',
  'test/words.test.js > words > truncate > leaves short text alone',
  'test/words.test.js > words > truncate > ends cut text with an ellipsis',
  'test/words.test.js > a top-level test has no describe in its id',
];

const cheats = loadCheats(DIR);

describe('Jest as a real runner: exact ids, and cheats earn nothing (real Docker, Node 18, Jest 29, jestkit)', () => {
  let provider: SandboxProvider;
  let template: SandboxTemplate;
  let artifact: BugArtifact;
  let grading: Omit<GradeSolutionOptions, 'patch'>;
  let original: TestRun;
  let buggy: TestRun;
  const queue = new PQueue({ concurrency: 2 });

  /** One run of the Jest script in a fresh sandbox, after `prepare` (shell) when given. */
  async function run(prepare?: string): Promise<TestRun> {
    const sandbox = await provider.acquire(template);
    try {
      if (prepare !== undefined) {
        const result = await sandbox.exec(prepare, { timeoutMs: 60_000 });
        expect(result.exitCode, result.output).toBe(0);
      }
      return await runTests(sandbox, { testScript: artifact.testScript, testParser: artifact.testParser, timeoutMs: TEST_TIMEOUT_S * 1000 });
    } finally {
      await sandbox.dispose();
    }
  }

  beforeAll(async () => {
    const started = Date.now();
    template = await dockerTemplate(await fixtureRepo(REPO_FILES, 'jestkit', 'jest', TEST_TIMEOUT_S));
    console.log(`jestkit image ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    provider = createProvider('docker');
    artifact = cheatArtifact(DIR, 'jest');
    [original, buggy] = await Promise.all([run(), run(`git apply <<'SSR_BUG_EOF'\n${artifact.bugInject}SSR_BUG_EOF`)]);
    const passing = Object.entries(original.statuses).filter(([, status]) => status === 'passed').map(([id]) => id).sort();
    grading = { provider, template, artifact, originalPassing: passing, testTimeoutMs: TEST_TIMEOUT_S * 1000 };
  }, 1_500_000);

  it('gives every test of the original its exact id `file > describe… > test`, passed', () => {
    expect(original.statuses, original.log.slice(-3000)).toEqual(Object.fromEntries(IDS.map((id) => [id, 'passed'])));
  });

  it('with the bug, fails exactly the test that checks it and passes the rest', () => {
    expect(buggy.statuses, buggy.log.slice(-3000)).toEqual(Object.fromEntries(IDS.map((id) => [id, id === F ? 'failed' : 'passed'])));
  });

  const grade = (commands: string): Promise<SolverGrade> =>
    queue.add(async () => gradeSolution({ ...grading, patch: await cheatPatch({ provider, template, artifact }, commands, 200_000) })) as Promise<SolverGrade>;

  it('holds the Jest cheats the issue names', () => {
    expect(cheats.map((cheat) => cheat.name)).toEqual([
      'clear-recorded-failures.sh',
      'config-narrows-collection.sh',
      'equality-tester-accepts-all.sh',
      'expect-extend-neutralises-matchers.sh',
      'forge-report-into-log.sh',
      'forge-report-stdout.sh',
      'matchers-store-rewritten.sh',
      'object-is-neutralised.sh',
      'package-json-narrows-collection.sh',
      'replace-test-bodies.sh',
      'rewrap-jest-globals.sh',
      'setup-file-swallows-failures.sh',
      'shadow-runner.sh',
    ]);
  });

  it.concurrent.each(cheats.map((cheat) => [cheat.name, cheat] as const))('%s earns −1 with the bug still there', async (_name, cheat) => {
    const result = await grade(cheat.body);
    expectCheatEarnsNothing(result, cheat, F);
  }, 1_500_000);

  it.concurrent('the honest fix earns +1 with no flags', async () => {
    const result = await grade(FIX);
    expect(result).toMatchObject({ reward: 1, code: 'solved', applied: 'git-apply', failingTests: [], droppedSections: [], flags: [] });
  }, 1_500_000);
});
