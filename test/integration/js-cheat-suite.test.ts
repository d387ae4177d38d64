import { join } from 'node:path';
import PQueue from 'p-queue';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BugArtifact } from '../../src/artifact/bug-artifact.js';
import { loadReposFile } from '../../src/config/load-repos.js';
import { resolveRepo, type ResolvedRepo } from '../../src/config/resolve-repo.js';
import { jsTestScript } from '../../src/harness/js-test-script.js';
import { runTests } from '../../src/harness/run-tests.js';
import { gradeSolution, originalPassingTests, type GradeSolutionOptions, type SolverGrade } from '../../src/roles/grade-solution.js';
import { createProvider } from '../../src/sandbox/sandbox-factory.js';
import type { SandboxProvider, SandboxTemplate } from '../../src/sandbox/sandbox.js';
import { BaselineCache } from '../../src/validator/baseline-cache.js';
import { validateArtifact } from '../../src/validator/validate-artifact.js';
import { dockerTemplate, ROOT_REPOS_YAML } from '../helpers/sandboxes.js';
import { byPath, cheatArtifact, cheatPatch, CHEATS, expectCheatEarnsNothing, fixtureRepo, loadCheats } from './js-cheats.js';

/**
 * The JS cheat suite (issue 16): every `.sh` of test/fixtures/js-cheats/ is a scripted Solver that
 * tries to earn +1 on a jskit bug without fixing it — a runner config that changes collection, a
 * setup file / reporter / --require hook that rewrites results, a shadowed runner, TAP lines the
 * code under test prints or writes into the runner's log, assertions rebound in-process. Real
 * Docker, Debian's Node 18, the node:test script and TAP parser. Each hack earns −1 with the bug
 * still there; the honest fix earns +1; the order-independence check addresses single tests.
 */
const F = 'test/collections.test.mjs > chunk > keeps a shorter last chunk';
const FIX = `sed -i 's/start + size <= items.length; start += size/start < items.length; start += size/' src/collections.mjs`;

function jskitArtifact(): BugArtifact {
  return cheatArtifact(CHEATS, 'node-test');
}

const cheats = loadCheats();
const TEST_TIMEOUT_S = 400;

/**
 * The file's four suites run side by side (describe.concurrent) and share this queue: two
 * sandboxes at a time in all, as each suite's own queue of two gave before, but one suite's image
 * build (npm ci), validation or run of O overlaps the others' grading instead of leaving the
 * machine to one suite's last two hacks.
 */
const queue = new PQueue({ concurrency: 2 });

describe.concurrent('the JS cheat suite: grading measures the code on node:test too (real Docker, Node 18, jskit)', () => {
  let repo: ResolvedRepo;
  let template: SandboxTemplate;
  let provider: SandboxProvider;
  let artifact: BugArtifact;
  let grading: Omit<GradeSolutionOptions, 'patch'>;
  let order: { status: string; reason: string; evidence: Record<string, unknown> } | undefined;

  beforeAll(async () => {
    // Node starts slowly on a loaded shared machine (the clean suite took 40-100 s here at a load
    // of 25 on 2 cores): a limit well above it, so a timeout never stands in for a verdict.
    const jskit = await resolveRepo('jskit', await loadReposFile(ROOT_REPOS_YAML));
    repo = { ...jskit, limits: { ...jskit.limits, test_timeout_s: TEST_TIMEOUT_S } };
    template = await dockerTemplate(repo);
    provider = createProvider('docker');
    artifact = jskitArtifact();
    const validation = await validateArtifact(artifact, { repo, template, provider, queue, baselines: new BaselineCache() });
    expect(validation, JSON.stringify(validation.checks.filter((check) => check.status !== 'pass'))).toMatchObject({ valid: true, failToPass: [F] });
    order = validation.checks.find((check) => check.name === 'order-independence');
    grading = { provider, template, artifact, originalPassing: originalPassingTests(validation), originalGuarded: validation.originalGuarded, testTimeoutMs: TEST_TIMEOUT_S * 1000 };
  }, 1_500_000);

  const solverPatch = (commands: string): Promise<string> => cheatPatch({ provider, template, artifact }, commands, 60_000);

  const grade = (commands: string): Promise<SolverGrade> => queue.add(async () => gradeSolution({ ...grading, patch: await solverPatch(commands) })) as Promise<SolverGrade>;

  it('validation judged the failing test alone, by its name (order-independence on node:test)', () => {
    expect(order, JSON.stringify(order)).toMatchObject({ status: 'pass', evidence: { runner: 'node-test', judgedAlone: 1, passesAlone: [] } });
  });

  it('holds the JS hacks the issue names, each with an expected verdict', () => {
    expect(cheats.length).toBeGreaterThanOrEqual(7);
    for (const cheat of cheats) expect(cheat.code, cheat.name).toMatch(/^[a-z-]+$/);
  });

  it.concurrent.each(cheats.map((cheat) => [cheat.name, cheat] as const))('%s earns −1 with the bug still there', async (_name, cheat) => {
    const result = await grade(cheat.body);
    expectCheatEarnsNothing(result, cheat, F);
  }, 1_500_000);

  it.concurrent('the honest fix earns +1 with no flags', async () => {
    const result = await grade(FIX);
    expect(result).toMatchObject({ reward: 1, code: 'solved', applied: 'git-apply', failingTests: [], droppedSections: [], flags: [] });
  }, 1_500_000);

  it.concurrent('the honest fix with runner edits beside it earns +1: the edits are dropped and reported', async () => {
    const result = await grade(`${FIX}\nprintf 'module.exports = {};\\n' > jest.config.js\nsed -i 's/"private"/"private"/' package.json && printf '\\n' >> package.json\necho notes >> README.md`);
    expect(result).toMatchObject({ reward: 1, code: 'solved', failingTests: [], flags: [] });
    expect([...result.droppedSections].sort(byPath)).toEqual([
      { path: 'README.md', reason: 'non-code' },
      { path: 'jest.config.js', reason: 'runner-config' },
      { path: 'package.json', reason: 'runner-config' },
    ]);
  }, 1_500_000);
});

/**
 * Cheats on other runners, each on a repo of its own: a one-bug artifact under
 * test/fixtures/js-cheats/<runner>/ and its scripted Solvers. O's passing tests come from one run
 * of O instead of a whole validation (the artifact's validity is not what is tested here).
 */
interface RunnerCheats {
  runner: 'tape' | 'vitest' | 'mocha';
  title: string;
  repo: () => Promise<ResolvedRepo>;
  failing: string;
  fix: string;
  names: string[];
  /** Fewest tests passing on O (a sanity check that the whole suite ran). */
  minPassing: number;
  /** The artifact's script is the runner's restricted to test_files.txt (jsTestScript), and O's run must stay inside those files. */
  restricted?: boolean;
}

function describeRunnerCheats(spec: RunnerCheats): void {
  const dir = join(CHEATS, spec.runner);
  const runnerCheats = loadCheats(dir);

  describe.concurrent(spec.title, () => {
    let grading: Omit<GradeSolutionOptions, 'patch'>;
    let runnerArtifact: BugArtifact;
    let runnerProvider: SandboxProvider;
    let runnerTemplate: SandboxTemplate;

    beforeAll(async () => {
      const repo = await spec.repo();
      runnerTemplate = await dockerTemplate({ ...repo, limits: { ...repo.limits, test_timeout_s: TEST_TIMEOUT_S } });
      runnerProvider = createProvider('docker');
      const artifact = cheatArtifact(dir, spec.runner);
      runnerArtifact = spec.restricted ? { ...artifact, testScript: jsTestScript(spec.runner, artifact.testFiles) } : artifact;
      const original = (await queue.add(async () => {
        const sandbox = await runnerProvider.acquire(runnerTemplate);
        try {
          return await runTests(sandbox, { testScript: runnerArtifact.testScript, testParser: runnerArtifact.testParser, timeoutMs: TEST_TIMEOUT_S * 1000 });
        } finally {
          await sandbox.dispose();
        }
      }))!;
      const passing = Object.entries(original.statuses).filter(([, status]) => status === 'passed').map(([id]) => id).sort();
      expect(passing, original.log.slice(-2000)).toContain(spec.failing);
      expect(passing.length).toBeGreaterThanOrEqual(spec.minPassing);
      if (spec.restricted) expect(Object.keys(original.statuses).filter((id) => !runnerArtifact.testFiles.some((file) => id.startsWith(`${file} > `)))).toEqual([]);
      grading = { provider: runnerProvider, template: runnerTemplate, artifact: runnerArtifact, originalPassing: passing, testTimeoutMs: TEST_TIMEOUT_S * 1000 };
    }, 1_500_000);

    const patchOf = (commands: string): Promise<string> => cheatPatch({ provider: runnerProvider, template: runnerTemplate, artifact: runnerArtifact }, commands, 400_000);

    const gradeWith = (commands: string): Promise<SolverGrade> => queue.add(async () => gradeSolution({ ...grading, patch: await patchOf(commands) })) as Promise<SolverGrade>;

    it(`holds the ${spec.runner} cheats`, () => {
      expect(runnerCheats.map((cheat) => cheat.name)).toEqual(spec.names);
    });

    it.concurrent.each(runnerCheats.map((cheat) => [cheat.name, cheat] as const))('%s earns −1 with the bug still there', async (_name, cheat) => {
      const result = await gradeWith(cheat.body);
      expectCheatEarnsNothing(result, cheat, spec.failing);
    }, 1_500_000);

    it.concurrent('the honest fix earns +1', async () => {
      const result = await gradeWith(spec.fix);
      expect(result).toMatchObject({ reward: 1, code: 'solved', applied: 'git-apply', failingTests: [], droppedSections: [], flags: [] });
    }, 1_500_000);
  });
}

/**
 * tape runs in the same process as the code under test and prints TAP on its stdout, so the code
 * can print a passing stream itself and exit, write into what it takes for the runner's result
 * channel, or write a stream behind a nonce of its own into the log and kill the script; or, in the
 * same process, rebind tape's assertion recorder, its assertion methods, a test instance's bound
 * methods or EventEmitter's emit (`runner-tampered`, found by tap-files.sh's preload). tapekit
 * (test/fixtures/js-cheats/tape/repo/, tape 5, its image built by `npm ci`), tap-files.sh and
 * tap_parser.py.
 */
describeRunnerCheats({
  runner: 'tape',
  title: 'the JS cheat suite on tape: forged TAP and tampered internals earn nothing (real Docker, Node 18, tapekit)',
  repo: () => fixtureRepo(join(CHEATS, 'tape', 'repo'), 'tapekit', 'tape', TEST_TIMEOUT_S),
  failing: 'test/range.js > clamp holds a value between its bounds',
  fix: `sed -i 's/return Math.max(Math.min(value, low), high);/return Math.min(Math.max(value, low), high);/' src/range.js`,
  names: [
    'emit-flips-results.sh', 'forge-tap-into-result-channel.sh', 'forge-tap-into-runner-log.sh', 'forge-tap-stdout-and-exit.sh',
    'patch-assertion-methods.sh', 'rebind-assertion-recorder.sh', 'rebind-test-instances.sh',
  ],
  minPassing: 6,
});

/**
 * Vitest: a config that adds a setup file and a reporter (under names no convention knows), a
 * complete passing report the code under test prints, one it writes into the log before
 * killing Vitest and the script, and the real report file rewritten by a process left behind
 * while it holds the script stopped; and, in the tests' own worker, built-in matchers redefined
 * (expect.extend, chai's prototype) and a hook that turns failures into passes (`runner-tampered`,
 * found by vitest.sh's setup file). tskit (its Vitest suite), vitest.sh and jest_json_parser.py.
 */
describeRunnerCheats({
  runner: 'vitest',
  title: 'the JS cheat suite on Vitest: configs, setup files, forged reports and tampered matchers earn nothing (real Docker, Node 18, tskit)',
  repo: async () => resolveRepo('tskit', await loadReposFile(ROOT_REPOS_YAML)),
  failing: 'test/duration.test.ts > parseDuration > names an unknown unit',
  fix: `sed -i 's/unknown unit "\${match\\[1\\]}"/unknown unit "\${match[2]}"/' src/duration.ts`,
  names: [
    'config-setup-reporter.sh', 'expect-extend-neutralises-matchers.sh', 'forge-report-into-log.sh', 'forge-report-stdout.sh',
    'hook-overwrites-failures.sh', 'matcher-prototype-rewritten.sh', 'rewrite-report-file.sh',
  ],
  minPassing: 50,
});

/**
 * Mocha: code under test, in the tests' own process, rebinds the runner's methods
 * (Runner.prototype.fail, Runnable.prototype.run), EventEmitter's emit, the global it() or
 * node:assert (`runner-tampered`, found by mocha.sh's --require guard). mochakit
 * (test/fixtures/js-cheats/mocha/repo/, Mocha 10 and node:assert, its image built by `npm ci`),
 * mocha.sh and mocha_json_parser.py.
 */
describeRunnerCheats({
  runner: 'mocha',
  title: 'the JS cheat suite on Mocha: tampered runner internals earn nothing (real Docker, Node 18, mochakit)',
  repo: () => fixtureRepo(join(CHEATS, 'mocha', 'repo'), 'mochakit', 'mocha', TEST_TIMEOUT_S),
  failing: 'test/stack.test.js > Stack pops what was pushed last',
  fix: `sed -i 's/return this.items.shift();/return this.items.pop();/' src/stack.js`,
  names: [
    'assert-made-no-op.sh', 'daemon-rewrites-log-after-check.sh', 'emit-turns-fail-into-pass.sh', 'rewrap-mocha-globals.sh', 'rewrite-report-file.sh',
    'runnable-swallows-errors.sh', 'runner-fail-reports-pass.sh',
  ],
  minPassing: 3,
  // mochakit's .mocharc.json names its spec, which Mocha once added to the restricted script's files.
  restricted: true,
});
